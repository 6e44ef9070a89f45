import FormControl from "@mui/material/FormControl";
import FormHelperText, { type FormHelperTextProps } from "@mui/material/FormHelperText";
import type { InputBaseComponentProps } from "@mui/material/InputBase";
import InputLabel, { type InputLabelProps } from "@mui/material/InputLabel";
import OutlinedInput, { type OutlinedInputProps } from "@mui/material/OutlinedInput";
import type { TextFieldProps } from "@mui/material/TextField";
import { forwardRef, useId } from "react";

export type OutlinedTextFieldProps = Omit<
  TextFieldProps,
  "select" | "SelectProps" | "variant" | "slots" | "slotProps" | "children"
> & {
  slotProps?: {
    input?: Partial<OutlinedInputProps>;
    htmlInput?: InputBaseComponentProps;
    inputLabel?: Partial<InputLabelProps>;
    formHelperText?: Partial<FormHelperTextProps>;
  };
};

/**
 * MUI's TextField in its outlined variant, put together the way TextField does it (FormControl,
 * InputLabel, OutlinedInput, FormHelperText; same ids, aria links and class names), without what the
 * forms never use: `select` pulls in Select, Menu, Popover and Modal, plus the filled and standard
 * inputs. The forms' text fields (FormTextField, PasswordField) use it, so the login page carries
 * none of that (issue 9). A select field keeps using TextField.
 */
export const OutlinedTextField = forwardRef<HTMLDivElement, OutlinedTextFieldProps>(function OutlinedTextField(
  {
    autoComplete,
    autoFocus = false,
    className,
    color = "primary",
    defaultValue,
    disabled = false,
    error = false,
    fullWidth = false,
    helperText,
    id: idOverride,
    inputRef,
    label,
    maxRows,
    minRows,
    multiline = false,
    name,
    onBlur,
    onChange,
    onFocus,
    placeholder,
    required = false,
    rows,
    slotProps = {},
    type,
    value,
    ...other
  },
  ref,
) {
  const generatedId = useId();
  const id = idOverride ?? generatedId;
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  const labelShown = label != null && label !== "";
  return (
    <FormControl
      ref={ref}
      className={className ? `MuiTextField-root ${className}` : "MuiTextField-root"}
      disabled={disabled}
      error={error}
      fullWidth={fullWidth}
      required={required}
      color={color}
      variant="outlined"
      {...other}
    >
      {labelShown && (
        <InputLabel htmlFor={id} id={`${id}-label`} {...slotProps.inputLabel}>
          {label}
        </InputLabel>
      )}
      <OutlinedInput
        aria-describedby={helperTextId}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        defaultValue={defaultValue}
        fullWidth={fullWidth}
        multiline={multiline}
        name={name}
        rows={rows}
        maxRows={maxRows}
        minRows={minRows}
        type={type}
        value={value}
        id={id}
        inputRef={inputRef}
        onBlur={onBlur}
        onChange={onChange}
        onFocus={onFocus}
        placeholder={placeholder}
        inputProps={slotProps.htmlInput}
        label={label}
        notched={slotProps.inputLabel?.shrink}
        {...slotProps.input}
      />
      {helperText && (
        <FormHelperText id={helperTextId} {...slotProps.formHelperText}>
          {helperText}
        </FormHelperText>
      )}
    </FormControl>
  );
});

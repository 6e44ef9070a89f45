import { type Control, Controller, type FieldPath, type FieldValues } from "react-hook-form";
import { validationText } from "../../lib/validation";
import { PasswordField } from "../PasswordField";
import { OutlinedTextField, type OutlinedTextFieldProps } from "./OutlinedTextField";

type Props<T extends FieldValues> = Omit<OutlinedTextFieldProps, "name" | "error"> & {
  control: Control<T>;
  name: FieldPath<T>;
  /** Lands on the <input> itself, for browser tests. */
  testId?: string;
  password?: boolean;
};

/**
 * A react-hook-form text input whose error is the contract's i18n key translated; without an error
 * it shows `helperText`. Every form's text fields go through here.
 */
export function FormTextField<T extends FieldValues>({ control, name, testId, password, helperText, ...props }: Props<T>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => {
        const common = {
          ...props,
          ...field,
          error: !!fieldState.error,
          helperText: validationText(fieldState.error?.message) ?? helperText,
        };
        return password ? (
          <PasswordField {...common} ref={field.ref} testId={testId} />
        ) : (
          <OutlinedTextField
            {...common}
            inputRef={field.ref}
            slotProps={{ ...props.slotProps, htmlInput: { "data-testid": testId } }}
          />
        );
      }}
    />
  );
}

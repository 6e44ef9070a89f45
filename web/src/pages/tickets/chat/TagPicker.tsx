import type { TagRef, TicketView } from "@charla/contracts";
import { Limits } from "@charla/contracts";
import LabelIcon from "@mui/icons-material/LocalOfferOutlined";
import Autocomplete, { createFilterOptions } from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import TextField from "@mui/material/TextField";
import { getContrastRatio } from "@mui/material/styles";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../../api/errors";
import { useCreateTag, useSyncTags, useTagOptions } from "../../../api/tags";
import { putTicketInCache } from "../../../api/ticket-actions";

type Option = TagRef & { create?: boolean };

const filter = createFilterOptions<Option>({ stringify: (option) => option.name });

// New tags get a colour from a small palette, picked by name so the same name keeps its colour.
const PALETTE = ["#5C59A0", "#00897B", "#E53935", "#FB8C00", "#3949AB", "#8E24AA", "#43A047", "#6D4C41", "#D81B60", "#039BE5"];
function colorFor(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) | 0;
  return PALETTE[Math.abs(hash) % PALETTE.length];
}

function textOn(color: string): string {
  try {
    return getContrastRatio(color, "#fff") >= 3 ? "#fff" : "rgba(0,0,0,0.87)";
  } catch {
    return "#fff";
  }
}

/** core §2 tag picker: the ticket's tags; typing a new name of 3+ characters offers to create it. */
export function TagPicker({ ticket }: { ticket: TicketView }) {
  const { t } = useTranslation("chat");
  const client = useQueryClient();
  const options = useTagOptions();
  const create = useCreateTag();
  const sync = useSyncTags();
  const [input, setInput] = useState("");

  const change = async (values: Option[]) => {
    const before = ticket;
    try {
      const tags: TagRef[] = [];
      for (const value of values) {
        if (!value.create) tags.push(value);
        else {
          const tag = await create.mutateAsync({ name: value.name, color: colorFor(value.name) });
          tags.push({ id: tag.id, name: tag.name, color: tag.color });
        }
      }
      // optimistic: the chips change at once, the answer confirms them
      putTicketInCache(client, { ...ticket, tags });
      setInput("");
      await sync.mutateAsync({ ticketId: ticket.id, tags: tags.map(({ id }) => ({ id })) });
    } catch (error) {
      putTicketInCache(client, before);
      toastError(error);
    }
  };

  const busy = create.isPending || sync.isPending;
  return (
    <Box
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 1,
        px: { xs: 1.5, sm: 2 },
        py: 0.5,
        bgcolor: "background.paper",
        borderBottom: 1,
        borderColor: "divider",
      }}
    >
      <LabelIcon fontSize="small" sx={{ color: "text.secondary" }} />
      <Autocomplete<Option, true, false, false>
        multiple
        fullWidth
        size="small"
        limitTags={4}
        options={options.data ?? []}
        loading={options.isLoading}
        value={ticket.tags}
        inputValue={input}
        onInputChange={(_, value, reason) => {
          if (reason !== "reset") setInput(value);
        }}
        onChange={(_, values) => void change(values)}
        isOptionEqualToValue={(option, value) => option.id === value.id}
        getOptionLabel={(option) => option.name}
        filterSelectedOptions
        filterOptions={(list, state) => {
          const filtered = filter(list, state);
          const name = state.inputValue.trim();
          const exists = list.some((tag) => tag.name.toLowerCase() === name.toLowerCase());
          if (
            name.length >= Limits.tagName.min &&
            !exists &&
            !ticket.tags.some((tag) => tag.name.toLowerCase() === name.toLowerCase())
          ) {
            filtered.push({ id: -1, name, color: colorFor(name), create: true });
          }
          return filtered;
        }}
        renderOption={(props, option) => {
          const { key, ...rest } = props;
          return (
            <li key={key} {...rest} data-testid={option.create ? "chat-tags-create" : "chat-tags-option"}>
              <Box
                component="span"
                sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: option.color, mr: 1, flexShrink: 0 }}
              />
              {option.create ? t("tags.create", { name: option.name }) : option.name}
            </li>
          );
        }}
        renderValue={(values, getItemProps) =>
          values.map((option, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            return (
              <Chip
                key={key}
                {...itemProps}
                size="small"
                label={option.name}
                data-testid="chat-tag"
                sx={{
                  bgcolor: option.color,
                  color: textOn(option.color),
                  fontWeight: 500,
                  "& .MuiChip-deleteIcon": { color: "inherit", opacity: 0.7 },
                }}
              />
            );
          })
        }
        noOptionsText={t("tags.none")}
        renderInput={(params) => (
          <TextField
            {...params}
            variant="standard"
            placeholder={ticket.tags.length ? "" : t("tags.placeholder")}
            slotProps={{
              ...params.slotProps,
              input: {
                ...params.slotProps.input,
                disableUnderline: true,
                endAdornment: (
                  <>
                    {busy ? <CircularProgress size={16} /> : null}
                    {params.slotProps.input.endAdornment}
                  </>
                ),
              } as object,
              htmlInput: { ...params.slotProps.htmlInput, "data-testid": "chat-tags" },
            }}
          />
        )}
      />
    </Box>
  );
}

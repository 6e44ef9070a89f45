import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import ListItemText from "@mui/material/ListItemText";
import MenuItem from "@mui/material/MenuItem";
import { useTheme } from "@mui/material/styles";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import { useTranslation } from "react-i18next";
import { tagColors } from "./ticket-format";

export type FilterOption = { id: number; name: string; color?: string | null };

type MultiSelectProps = {
  label: string;
  allLabel: string;
  options: FilterOption[];
  value: number[];
  onChange: (ids: number[]) => void;
  testId: string;
};

function ColorDot({ color }: { color?: string | null }) {
  const theme = useTheme();
  if (!color) return null;
  return (
    <Box
      component="span"
      sx={{ width: 10, height: 10, borderRadius: "50%", flexShrink: 0, bgcolor: tagColors(theme, color).bg }}
    />
  );
}

/** A compact multi-select; nothing chosen means "all" (no filter sent). */
function MultiSelect({ label, allLabel, options, value, onChange, testId }: MultiSelectProps) {
  const chosen = options.filter((option) => value.includes(option.id));
  return (
    <TextField
      select
      size="small"
      fullWidth
      disabled={options.length === 0}
      label={label}
      value={value}
      onChange={(event) => {
        const raw = event.target.value as unknown;
        onChange(Array.isArray(raw) ? raw.map(Number) : []);
      }}
      slotProps={{
        inputLabel: { shrink: true },
        select: {
          multiple: true,
          displayEmpty: true,
          SelectDisplayProps: { "data-testid": testId } as object,
          MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } },
          renderValue: () =>
            chosen.length === 0 ? (
              <Box component="span" sx={{ color: "text.secondary" }}>
                {allLabel}
              </Box>
            ) : (
              <Box component="span" sx={{ display: "flex", alignItems: "center", gap: 0.75, overflow: "hidden" }}>
                {chosen.slice(0, 4).map((option) => (
                  <ColorDot key={option.id} color={option.color} />
                ))}
                <Box component="span" sx={{ overflow: "hidden", textOverflow: "ellipsis" }}>
                  {chosen.map((option) => option.name).join(", ")}
                </Box>
              </Box>
            ),
        },
      }}
    >
      {options.map((option) => (
        <MenuItem key={option.id} value={option.id} dense data-testid={`${testId}-option`}>
          <Checkbox size="small" checked={value.includes(option.id)} sx={{ p: 0.5, mr: 1 }} />
          <ColorDot color={option.color} />
          <ListItemText primary={option.name} sx={{ ml: option.color ? 1 : 0 }} />
        </MenuItem>
      ))}
    </TextField>
  );
}

type Props = {
  queues: FilterOption[];
  queueIds: number[];
  onQueueIds: (ids: number[]) => void;
  tags: FilterOption[];
  tagIds: number[];
  onTagIds: (ids: number[]) => void;
  /** Only for admins (core §6); null hides the users filter. */
  users: FilterOption[] | null;
  userIds: number[];
  onUserIds: (ids: number[]) => void;
  unreadOnly: boolean;
  onUnreadOnly: (value: boolean) => void;
  /** Shown while any filter is set. */
  onClear?: () => void;
};

/** The list's filters (core §2, §6): queues, tags (everyone), users (admins), only unread. */
export function TicketsFilters(props: Props) {
  const { t } = useTranslation("tickets");
  return (
    <Box
      sx={{
        display: "grid",
        gridTemplateColumns: "1fr 1fr",
        gap: 1.25,
        px: 1.5,
        pt: 1,
        pb: 1.25,
        borderBottom: 1,
        borderColor: "divider",
      }}
    >
      <MultiSelect
        label={t("filters.queues")}
        allLabel={t("filters.allQueues")}
        options={props.queues}
        value={props.queueIds}
        onChange={props.onQueueIds}
        testId="tickets-filter-queues"
      />
      <MultiSelect
        label={t("filters.tags")}
        allLabel={t("filters.allTags")}
        options={props.tags}
        value={props.tagIds}
        onChange={props.onTagIds}
        testId="tickets-filter-tags"
      />
      {props.users && (
        <MultiSelect
          label={t("filters.users")}
          allLabel={t("filters.allUsers")}
          options={props.users}
          value={props.userIds}
          onChange={props.onUserIds}
          testId="tickets-filter-users"
        />
      )}
      <FormControlLabel
        sx={{ m: 0, gridColumn: props.users ? "auto" : "1 / -1" }}
        control={
          <Switch
            size="small"
            checked={props.unreadOnly}
            onChange={(event) => props.onUnreadOnly(event.target.checked)}
            slotProps={{ input: { "data-testid": "tickets-filter-unread" } as object }}
          />
        }
        label={t("filters.unreadOnly")}
        slotProps={{ typography: { variant: "body2", sx: { ml: 0.5 } } }}
      />
      {props.onClear && (
        <Button
          size="small"
          onClick={props.onClear}
          data-testid="tickets-filters-clear"
          sx={{ gridColumn: "1 / -1", justifySelf: "end", textTransform: "none", py: 0 }}
        >
          {t("filters.clear")}
        </Button>
      )}
    </Box>
  );
}

import type { ContactCard, SharedLocation } from "@charla/contracts";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import ContactIcon from "@mui/icons-material/PersonOutlineOutlined";
import FileIcon from "@mui/icons-material/InsertDriveFileOutlined";
import LocationIcon from "@mui/icons-material/PlaceOutlined";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Tooltip from "@mui/material/Tooltip";
import { Suspense, lazy, useState } from "react";
import { useTranslation } from "react-i18next";

// The dialogs are fetched the first time one is asked for: most answers are text.
const LocationDialog = lazy(() =>
  import("../../../components/share/LocationDialog").then((m) => ({ default: m.LocationDialog })),
);
const ContactCardDialog = lazy(() =>
  import("../../../components/share/ContactCardDialog").then((m) => ({ default: m.ContactCardDialog })),
);

type Props = {
  onFiles: () => void;
  /** Each resolves true once sent, so its dialog closes; false keeps what was typed. */
  onLocation: (location: SharedLocation) => Promise<boolean>;
  onContact: (card: ContactCard) => Promise<boolean>;
};

/** The clip: files, a location or a contact card, as WhatsApp offers them. */
export function AttachMenu({ onFiles, onLocation, onContact }: Props) {
  const { t } = useTranslation("chat");
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<"location" | "contact" | null>(null);
  const choose = (action: () => void) => {
    setAnchor(null);
    action();
  };
  return (
    <>
      <Tooltip title={t("composer.attach")}>
        <IconButton
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-label={t("composer.attach")}
          aria-haspopup="menu"
          data-testid="composer-attach-menu"
          sx={{ mb: 0.25 }}
        >
          <AttachFileIcon sx={{ transform: "rotate(45deg)" }} />
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "top", horizontal: "left" }}
        transformOrigin={{ vertical: "bottom", horizontal: "left" }}
      >
        <MenuItem onClick={() => choose(onFiles)} data-testid="composer-attach-files">
          <ListItemIcon>
            <FileIcon fontSize="small" />
          </ListItemIcon>
          {t("composer.files")}
        </MenuItem>
        <MenuItem onClick={() => choose(() => setDialog("location"))} data-testid="composer-attach-location">
          <ListItemIcon>
            <LocationIcon fontSize="small" />
          </ListItemIcon>
          {t("composer.location")}
        </MenuItem>
        <MenuItem onClick={() => choose(() => setDialog("contact"))} data-testid="composer-attach-contact">
          <ListItemIcon>
            <ContactIcon fontSize="small" />
          </ListItemIcon>
          {t("composer.contact")}
        </MenuItem>
      </Menu>
      {dialog && (
        <Suspense fallback={null}>
          <LocationDialog
            open={dialog === "location"}
            onClose={() => setDialog(null)}
            onSend={onLocation}
            testId="composer-location"
          />
          <ContactCardDialog
            open={dialog === "contact"}
            onClose={() => setDialog(null)}
            onSend={onContact}
            testId="composer-contact"
          />
        </Suspense>
      )}
    </>
  );
}

import type { ContactView } from "@charla/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { Ref, UIEvent } from "react";
import { useTranslation } from "react-i18next";
import { SectionLoader } from "../../components/FullPageLoader";
import { formatPhoneNumber } from "../../lib/phone";
import { ContactAvatar } from "./ContactAvatar";

type Props = {
  contacts: ContactView[];
  canDelete: boolean;
  loading: boolean;
  /** The empty text says whether nothing matched the search or there is nothing at all. */
  searching: boolean;
  scrollRef: Ref<HTMLDivElement>;
  onScroll: (event: UIEvent<HTMLDivElement>) => void;
  onEdit: (contact: ContactView) => void;
  onDelete: (contact: ContactView) => void;
};

// Under 600 px the number moves under the name and the email column goes; name and actions always stay.
const wideOnly = { display: { xs: "none", sm: "table-cell" } };
const narrowOnly = { display: { xs: "block", sm: "none" } };

/** Contact names, numbers and emails are customer data: rendered only as React text. */
export function ContactsTable({ contacts, canDelete, loading, searching, scrollRef, onScroll, onEdit, onDelete }: Props) {
  const { t } = useTranslation("contacts");
  return (
    <TableContainer
      component={Paper}
      variant="outlined"
      ref={scrollRef}
      onScroll={onScroll}
      sx={{ flex: 1, minHeight: 0, overflow: "auto" }}
      data-testid="contacts-table"
    >
      <Table stickyHeader size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t("columns.name")}</TableCell>
            <TableCell sx={wideOnly}>{t("columns.number")}</TableCell>
            <TableCell sx={wideOnly}>{t("columns.email")}</TableCell>
            <TableCell align="right">{t("columns.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {contacts.map((contact) => {
            const number = contact.isGroup ? contact.number : formatPhoneNumber(contact.number);
            return (
              <TableRow key={contact.id} hover data-testid="contacts-row" data-contact-id={contact.id}>
                <TableCell>
                  <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, minWidth: 0 }}>
                    <ContactAvatar id={contact.id} name={contact.name} profilePicUrl={contact.profilePicUrl} />
                    <Box sx={{ minWidth: 0 }}>
                      <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: "break-word" }}>
                        {contact.name}
                      </Typography>
                      {number && (
                        <Typography variant="caption" sx={{ ...narrowOnly, color: "text.secondary", whiteSpace: "nowrap" }}>
                          {number}
                        </Typography>
                      )}
                    </Box>
                  </Box>
                </TableCell>
                <TableCell sx={{ ...wideOnly, whiteSpace: "nowrap" }}>{number}</TableCell>
                <TableCell sx={{ ...wideOnly, wordBreak: "break-all" }}>{contact.email}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip title={t("common:actions.edit")}>
                    <IconButton
                      size="small"
                      aria-label={t("common:actions.edit")}
                      data-testid="contact-edit"
                      onClick={() => onEdit(contact)}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {canDelete && (
                    <Tooltip title={t("common:actions.delete")}>
                      <IconButton
                        size="small"
                        aria-label={t("common:actions.delete")}
                        data-testid="contact-delete"
                        onClick={() => onDelete(contact)}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {loading && <SectionLoader />}
      {!loading && contacts.length === 0 && (
        <Typography sx={{ p: 3, textAlign: "center", color: "text.secondary" }} data-testid="contacts-empty">
          {t(searching ? "emptySearch" : "empty")}
        </Typography>
      )}
    </TableContainer>
  );
}

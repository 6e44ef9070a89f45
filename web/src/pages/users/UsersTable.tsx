import type { UserView } from "@charla/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
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
import type { UIEvent } from "react";
import type { Ref } from "react";
import { useTranslation } from "react-i18next";
import { SectionLoader } from "../../components/FullPageLoader";

type Props = {
  users: UserView[];
  meId: number;
  loading: boolean;
  scrollRef: Ref<HTMLDivElement>;
  onScroll: (event: UIEvent<HTMLDivElement>) => void;
  onEdit: (user: UserView) => void;
  onDelete: (user: UserView) => void;
};

// Under 600 px email moves under the name and the profile column goes; name and actions always stay.
const wideOnly = { display: { xs: "none", sm: "table-cell" } };
const narrowOnly = { display: { xs: "block", sm: "none" } };

export function UsersTable({ users, meId, loading, scrollRef, onScroll, onEdit, onDelete }: Props) {
  const { t } = useTranslation("users");
  return (
    <TableContainer
      component={Paper}
      variant="outlined"
      ref={scrollRef}
      onScroll={onScroll}
      sx={{ flex: 1, minHeight: 0, overflow: "auto" }}
      data-testid="users-table"
    >
      <Table stickyHeader size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t("columns.name")}</TableCell>
            <TableCell sx={wideOnly}>{t("columns.email")}</TableCell>
            <TableCell sx={wideOnly}>{t("columns.profile")}</TableCell>
            <TableCell align="right">{t("columns.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {users.map((user) => (
            <TableRow key={user.id} hover data-testid="users-row" data-user-id={user.id}>
              <TableCell sx={{ fontWeight: 500, wordBreak: "break-word" }}>
                {user.name}
                <Typography variant="caption" sx={{ ...narrowOnly, color: "text.secondary", wordBreak: "break-all" }}>
                  {user.email}
                </Typography>
              </TableCell>
              <TableCell sx={{ ...wideOnly, wordBreak: "break-all" }}>{user.email}</TableCell>
              <TableCell sx={wideOnly}>{t(`common:profiles.${user.profile}`)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                <Tooltip title={t("common:actions.edit")}>
                  <IconButton
                    size="small"
                    aria-label={t("common:actions.edit")}
                    data-testid="user-edit"
                    onClick={() => onEdit(user)}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                {user.id !== meId && (
                  <Tooltip title={t("common:actions.delete")}>
                    <IconButton
                      size="small"
                      aria-label={t("common:actions.delete")}
                      data-testid="user-delete"
                      onClick={() => onDelete(user)}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {loading && <SectionLoader />}
      {!loading && users.length === 0 && (
        <Typography sx={{ p: 3, textAlign: "center", color: "text.secondary" }} data-testid="users-empty">
          {t("empty")}
        </Typography>
      )}
    </TableContainer>
  );
}

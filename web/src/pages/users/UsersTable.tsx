import type { UserView } from "@charla/contracts";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Ref, UIEvent } from "react";
import { useTranslation } from "react-i18next";
import { ListTable, RowActions, narrowOnly, wideOnly } from "../../components/ListTable";

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
export function UsersTable({ users, meId, loading, scrollRef, onScroll, onEdit, onDelete }: Props) {
  const { t } = useTranslation("users");
  return (
    <ListTable
      testId="users"
      columns={[
        { label: t("columns.name") },
        { label: t("columns.email"), wide: true },
        { label: t("columns.profile"), wide: true },
      ]}
      actionsLabel={t("columns.actions")}
      loading={loading}
      empty={users.length === 0 ? t("empty") : null}
      scrollRef={scrollRef}
      onScroll={onScroll}
    >
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
          <RowActions prefix="user" onEdit={() => onEdit(user)} onDelete={user.id !== meId ? () => onDelete(user) : undefined} />
        </TableRow>
      ))}
    </ListTable>
  );
}

import type { UserView } from "@charla/contracts";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { userCollection } from "../../api/users";
import { useSessionUser } from "../../auth/context";
import { narrowOnly } from "../../components/ListTable";
import { ListPage } from "../../components/list-kit/ListPage";
import { UserModal } from "./UserModal";

/** core §2 Users: search, infinite scroll, the user modal, confirmed delete (never oneself). */
export default function UsersPage() {
  const { t } = useTranslation("users");
  const me = useSessionUser();
  const remove = userCollection.useDelete();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  return (
    <ListPage<UserView>
      title={t("title")}
      testId="users"
      useRows={userCollection.useList}
      searchLabel={t("search")}
      addLabel={t("add")}
      onAdd={() => setEditing({ id: null })}
      actionsLabel={t("columns.actions")}
      empty={() => t("empty")}
      rowTestId="user"
      rowData={(user) => ({ "data-user-id": user.id })}
      onEdit={(user) => setEditing({ id: user.id })}
      remove={{
        allowed: (user) => user.id !== me.id,
        title: (user) => t("confirmDelete.title", { name: user.name }),
        message: t("confirmDelete.message"),
        run: (user) => remove.mutateAsync(user.id),
        done: t("toasts.deleted"),
      }}
      // under 600 px the email moves under the name and the profile column goes
      columns={[
        {
          label: t("columns.name"),
          cell: (user) => (
            <>
              <Typography component="span" sx={{ fontWeight: 500 }}>
                {user.name}
              </Typography>
              <Typography variant="caption" sx={{ ...narrowOnly, color: "text.secondary", wordBreak: "break-all" }}>
                {user.email}
              </Typography>
            </>
          ),
        },
        { label: t("columns.email"), wide: true, cell: (user) => user.email },
        { label: t("columns.profile"), wide: true, cell: (user) => t(`common:profiles.${user.profile}`) },
      ]}
    >
      {editing && <UserModal open userId={editing.id} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}

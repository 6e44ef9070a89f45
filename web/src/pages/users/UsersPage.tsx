import { Limits, type UserView } from "@charla/contracts";
import AddIcon from "@mui/icons-material/Add";
import SearchIcon from "@mui/icons-material/Search";
import Button from "@mui/material/Button";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { toastError } from "../../api/errors";
import { useDeleteUser, useUsersList } from "../../api/users";
import { useSessionUser } from "../../auth/context";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { PageContainer } from "../../components/PageContainer";
import { useDebouncedValue } from "../../hooks/use-debounced-value";
import { useInfiniteScroll } from "../../hooks/use-infinite-scroll";
import { UserModal } from "./UserModal";
import { UsersTable } from "./UsersTable";

/** core §2 Users: search (500 ms), infinite scroll, user modal, confirmed delete. */
export default function UsersPage() {
  const { t } = useTranslation("users");
  const me = useSessionUser();
  const [search, setSearch] = useState("");
  const debouncedSearch = useDebouncedValue(search.trim(), Limits.debounceMs);
  const list = useUsersList(debouncedSearch);
  const remove = useDeleteUser();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  // The target outlives the dialog's closing animation so its title does not flicker empty.
  const [deleting, setDeleting] = useState<UserView | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);

  const users = useMemo(() => list.data?.pages.flatMap((page) => page.users) ?? [], [list.data]);
  const { ref, onScroll } = useInfiniteScroll<HTMLDivElement>({
    hasMore: list.hasNextPage,
    loading: list.isFetching,
    loadMore: () => void list.fetchNextPage(),
  });

  // core §8: a list that cannot load says so with one fixed text, whatever the cause.
  useEffect(() => {
    if (!list.isError) return;
    const text = t("common:feedback.loadList");
    toast.error(text, { toastId: text });
  }, [list.isError, t]);

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t("toasts.deleted"));
    } catch (error) {
      toastError(error, t("common:feedback.operationFailed"));
    }
    setConfirmOpen(false);
  };

  return (
    <PageContainer
      title={t("title")}
      fill
      actions={
        <>
          <TextField
            size="small"
            placeholder={t("search")}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            sx={{ flex: { xs: 1, sm: "none" }, minWidth: { sm: 240 } }}
            slotProps={{
              htmlInput: { "data-testid": "users-search", "aria-label": t("search") },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ id: null })} data-testid="users-add">
            {t("add")}
          </Button>
        </>
      }
    >
      <UsersTable
        users={users}
        meId={me.id}
        loading={list.isLoading || list.isFetchingNextPage}
        scrollRef={ref}
        onScroll={onScroll}
        onEdit={(user) => setEditing({ id: user.id })}
        onDelete={(user) => {
          setDeleting(user);
          setConfirmOpen(true);
        }}
      />
      {editing && <UserModal open userId={editing.id} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={confirmOpen}
        title={t("confirmDelete.title", { name: deleting?.name ?? "" })}
        confirmLabel={t("common:actions.delete")}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirmOpen(false)}
      >
        {t("confirmDelete.message")}
      </ConfirmDialog>
    </PageContainer>
  );
}

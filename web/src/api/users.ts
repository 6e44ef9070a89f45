import type { UserCreateForm, UserUpdateForm, UsersPage, UserView } from "@charla/contracts";
import { type InfiniteData, type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./client";
import { usePagedList, useRecord } from "./paged";

export const userKeys = {
  all: ["users"] as const,
  lists: () => ["users", "list"] as const,
  list: (search: string) => ["users", "list", search] as const,
  detail: (id: number) => ["users", "detail", id] as const,
};

type UsersData = InfiniteData<UsersPage, number>;

export function useUsersList(search: string) {
  return usePagedList<UsersPage>(userKeys.list(search), "/users", search);
}

export function useUser(id: number | null) {
  return useRecord<UserView>(userKeys.detail(id ?? 0), "/users", id);
}

function matchesSearch(user: UserView, search: string): boolean {
  const needle = search.trim().toLowerCase();
  return !needle || user.name.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle);
}

/** Puts a created or changed user into every loaded list (core §4 Live updates) and its detail. */
export function upsertUserInCache(client: QueryClient, user: UserView): void {
  client.setQueryData(userKeys.detail(user.id), user);
  for (const [key, data] of client.getQueriesData<UsersData>({ queryKey: userKeys.lists() })) {
    if (!data) continue;
    const search = String(key[2] ?? "");
    const present = data.pages.some((page) => page.users.some((u) => u.id === user.id));
    let pages: UsersPage[];
    if (present) {
      pages = data.pages.map((page) => ({ ...page, users: page.users.map((u) => (u.id === user.id ? user : u)) }));
    } else if (matchesSearch(user, search)) {
      pages = data.pages.map((page, i) => (i === 0 ? { ...page, users: [user, ...page.users] } : page));
    } else {
      continue;
    }
    client.setQueryData<UsersData>(key, { ...data, pages });
  }
}

export function removeUserFromCache(client: QueryClient, userId: number): void {
  client.removeQueries({ queryKey: userKeys.detail(userId) });
  client.setQueriesData<UsersData>({ queryKey: userKeys.lists() }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, users: page.users.filter((u) => u.id !== userId) })) } : data,
  );
}

export type SaveUserInput = { id: number | null; values: UserCreateForm | UserUpdateForm };

export function useSaveUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values }: SaveUserInput) =>
      id === null
        ? api<UserView>("/users", { method: "POST", body: values })
        : api<UserView>(`/users/${id}`, { method: "PUT", body: values }),
    onSuccess: (user) => upsertUserInCache(client, user),
  });
}

export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/users/${id}`, { method: "DELETE" }),
    onSuccess: (_, id) => removeUserFromCache(client, id),
  });
}

export function useUploadProfileImage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: File }) => {
      const form = new FormData();
      form.append("profileImage", file);
      return api<UserView>(`/users/${id}/media-upload`, { method: "POST", body: form });
    },
    onSuccess: (user) => {
      upsertUserInCache(client, user);
      void client.invalidateQueries({ queryKey: ["image", profileImagePath(user.id)] });
    },
  });
}

export function profileImagePath(userId: number): string {
  return `/users/${userId}/profile-image`;
}

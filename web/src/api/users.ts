import type { UserCreateForm, UserUpdateForm, UserView } from "@charla/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./client";
import { defineCollection } from "./collection";

/** core §7 Users: searched by name or email, 20 a page, newest additions first; `company-{id}-user` keeps it live. */
export const userCollection = defineCollection<UserView, UserCreateForm | UserUpdateForm>({
  name: "users",
  path: "/users",
  pageField: "users",
  matches: (user, search) => {
    const needle = search.trim().toLowerCase();
    return !needle || user.name.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle);
  },
  live: { channel: "user", item: "user", idField: "userId" },
});

export function useUploadProfileImage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: File }) => {
      const form = new FormData();
      form.append("profileImage", file);
      return api<UserView>(`/users/${id}/media-upload`, { method: "POST", body: form });
    },
    onSuccess: (user) => {
      userCollection.upsert(client, user);
      void client.invalidateQueries({ queryKey: ["image", profileImagePath(user.id)] });
    },
  });
}

export function profileImagePath(userId: number): string {
  return `/users/${userId}/profile-image`;
}

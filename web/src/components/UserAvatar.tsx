import AccountCircle from "@mui/icons-material/AccountCircle";
import Avatar from "@mui/material/Avatar";

/** A profile picture, or the default account icon when there is none. */
export function UserAvatar({ src, alt, size = 32 }: { src: string | null; alt: string; size?: number }) {
  if (!src) return <AccountCircle sx={{ width: size, height: size }} titleAccess={alt} />;
  return <Avatar src={src} alt={alt} sx={{ width: size, height: size }} />;
}

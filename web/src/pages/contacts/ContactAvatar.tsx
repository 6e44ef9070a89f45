import PersonIcon from "@mui/icons-material/Person";
import Avatar from "@mui/material/Avatar";

// The first letter or digit of a word; a name made only of symbols has no initials.
const firstCharacter = /[\p{L}\p{N}]/u;

/** Up to two initials (first and last word), as text. */
export function initialsOf(name: string): string {
  const letters = name
    .trim()
    .split(/\s+/)
    .map((word) => firstCharacter.exec(word)?.[0] ?? "")
    .filter(Boolean);
  if (letters.length === 0) return "";
  const picked = letters.length === 1 ? [letters[0]] : [letters[0], letters[letters.length - 1]];
  return picked.join("").toUpperCase();
}

// A stable colour per contact, mid-tone so white initials read in both themes.
function colorOf(seed: number): string {
  return `hsl(${(seed * 137) % 360} 45% 42%)`;
}

/** Only web pictures are loaded; anything else (empty, other schemes) falls back to the initials. */
function pictureOf(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? url : undefined;
}

type Props = { id: number; name: string; profilePicUrl: string; size?: number };

/** The contact's WhatsApp picture, or its initials when there is none or it fails to load. */
export function ContactAvatar({ id, name, profilePicUrl, size = 36 }: Props) {
  const initials = initialsOf(name);
  return (
    <Avatar
      src={pictureOf(profilePicUrl)}
      alt={name}
      slotProps={{ img: { referrerPolicy: "no-referrer", loading: "lazy" } }}
      sx={{ width: size, height: size, fontSize: size * 0.4, fontWeight: 600, bgcolor: colorOf(id), color: "#fff" }}
    >
      {initials || <PersonIcon fontSize="small" />}
    </Avatar>
  );
}

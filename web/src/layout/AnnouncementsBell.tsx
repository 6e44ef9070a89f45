import type { AnnouncementNotice } from "@charla/contracts";
import AnnouncementIcon from "@mui/icons-material/CampaignOutlined";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAnnouncementsForMe, useMarkAnnouncementRead } from "../api/announcements";
import { NotificationBell } from "../components/NotificationBell";
import { AnnouncementReader, PRIORITY_COLOR } from "./AnnouncementReader";

/**
 * The top bar's announcements bell (core §1, secondary §2): every user of every company sees the
 * active announcements, highest priority first, with the count of those they have not read; opening
 * one in the reader marks it read. `company-{id}-announcement` keeps it live.
 */
export function AnnouncementsBell() {
  const { t } = useTranslation("layout");
  const { t: ta } = useTranslation("announcements");
  const query = useAnnouncementsForMe();
  const markRead = useMarkAnnouncementRead();
  const [reading, setReading] = useState<AnnouncementNotice | null>(null);
  const records = query.data?.records ?? [];

  const open = (a: AnnouncementNotice) => {
    setReading(a);
    if (!a.read) markRead.mutate(a.id);
  };

  return (
    <>
      <NotificationBell
        icon={<AnnouncementIcon />}
        label={t("notifications.announcements")}
        emptyText={t("notifications.empty")}
        count={query.data?.unread ?? 0}
        testId="bell-announcements"
      >
        {records.length === 0
          ? null
          : (close) => (
              <List dense disablePadding>
                {records.map((a) => (
                  <ListItemButton
                    key={a.id}
                    data-testid="bell-announcement"
                    data-announcement-id={a.id}
                    data-read={a.read}
                    onClick={() => {
                      close();
                      open(a);
                    }}
                  >
                    <ListItemText
                      primary={
                        <Box component="span" sx={{ display: "flex", alignItems: "center", gap: 1, minWidth: 0 }}>
                          <Box
                            component="span"
                            sx={{
                              overflow: "hidden",
                              textOverflow: "ellipsis",
                              whiteSpace: "nowrap",
                              fontWeight: a.read ? 400 : 600,
                            }}
                          >
                            {a.title}
                          </Box>
                          {!a.read && (
                            <Box
                              component="span"
                              aria-label={ta("bell.unread")}
                              sx={{ width: 8, height: 8, borderRadius: "50%", bgcolor: "error.main", flex: "none" }}
                            />
                          )}
                        </Box>
                      }
                      secondary={a.text}
                      slotProps={{ secondary: { noWrap: true } }}
                    />
                    <Chip
                      size="small"
                      variant="outlined"
                      color={PRIORITY_COLOR[a.priority]}
                      label={ta(`priority.${a.priority}`)}
                      sx={{ ml: 1, flex: "none" }}
                    />
                  </ListItemButton>
                ))}
              </List>
            )}
      </NotificationBell>
      {reading && <AnnouncementReader announcement={reading} onClose={() => setReading(null)} />}
    </>
  );
}

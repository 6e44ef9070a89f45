import type { MessageView } from "@charla/contracts";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

// core §9: the previous page loads within 50 px of the top.
const TOP_THRESHOLD_PX = 50;
// Closer than this to the bottom counts as "reading the latest": new messages keep it in view.
const STICK_THRESHOLD_PX = 80;
const JUMP_BUTTON_PX = 320;
const REVEAL_MS = 1000;

type Options = {
  messages: MessageView[];
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
};

/**
 * The scroll behaviour of a conversation: opens at the bottom, follows new messages while the reader
 * is at the bottom (always after own sends), keeps the reader's place when an older page arrives on
 * top, and loads that page near the top. The browser's own scroll anchoring is off (overflow-anchor)
 * so only these rules move the list.
 */
export function useChatScroll({ messages, hasOlder, loadingOlder, loadOlder }: Options) {
  const containerRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const stickRef = useRef(true);
  // While a revealed message is being scrolled to, nothing may pull the list back to the bottom.
  const revealingUntil = useRef(0);
  const previous = useRef<{ firstId: number | null; lastId: number | null; height: number }>({
    firstId: null,
    lastId: null,
    height: 0,
  });
  const [showJump, setShowJump] = useState(false);

  const toBottom = useCallback(() => {
    const element = containerRef.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, []);

  useLayoutEffect(() => {
    const element = containerRef.current;
    if (!element) return;
    const firstId = messages[0]?.id ?? null;
    const last = messages[messages.length - 1];
    const lastId = last?.id ?? null;
    const before = previous.current;
    if (before.firstId !== null && firstId !== before.firstId && lastId === before.lastId) {
      // an older page went in above: keep what the reader was looking at where it was
      element.scrollTop += element.scrollHeight - before.height;
    } else if (before.lastId === null || (lastId !== before.lastId && (stickRef.current || last?.fromMe))) {
      element.scrollTop = element.scrollHeight;
      stickRef.current = true;
    } else if (stickRef.current) {
      element.scrollTop = element.scrollHeight;
    }
    previous.current = { firstId, lastId, height: element.scrollHeight };
  }, [messages]);

  // Late layout changes (fonts, a caption wrapping differently) keep a reader at the bottom there.
  useEffect(() => {
    const element = containerRef.current;
    const content = contentRef.current;
    if (!element || !content || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (stickRef.current && Date.now() > revealingUntil.current) element.scrollTop = element.scrollHeight;
      previous.current.height = element.scrollHeight;
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, []);

  // A first page too short to scroll would never reach the top threshold.
  useEffect(() => {
    const element = containerRef.current;
    if (element && hasOlder && !loadingOlder && element.scrollHeight <= element.clientHeight + TOP_THRESHOLD_PX) loadOlder();
  }, [hasOlder, loadingOlder, loadOlder]);

  const onScroll = useCallback(() => {
    const element = containerRef.current;
    if (!element) return;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    stickRef.current = distance < STICK_THRESHOLD_PX && Date.now() > revealingUntil.current;
    setShowJump(distance > JUMP_BUTTON_PX);
    if (element.scrollTop < TOP_THRESHOLD_PX && hasOlder && !loadingOlder) loadOlder();
  }, [hasOlder, loadingOlder, loadOlder]);

  /** Brings one message into view (messageId parameter, quote clicks); false when it is not loaded. */
  const reveal = useCallback((messageId: number, smooth: boolean): boolean => {
    const target = containerRef.current?.querySelector(`[data-message-id="${messageId}"]`);
    if (!target) return false;
    stickRef.current = false;
    revealingUntil.current = Date.now() + REVEAL_MS;
    target.scrollIntoView({ block: "center", behavior: smooth ? "smooth" : "auto" });
    return true;
  }, []);

  const jumpToBottom = useCallback(() => {
    const element = containerRef.current;
    if (!element) return;
    stickRef.current = true;
    element.scrollTo({ top: element.scrollHeight, behavior: "smooth" });
  }, []);

  return { containerRef, contentRef, onScroll, reveal, showJump, jumpToBottom, toBottom };
}

import { useTheme } from "@mui/material/styles";
import {
  cloneElement,
  type FocusEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { createPortal } from "react-dom";

// MUI Tooltip's timings: a hover shows it after 100 ms, a long press after 700 ms, for 1.5 s
const ENTER_MS = 100;
const TOUCH_ENTER_MS = 700;
const TOUCH_LEAVE_MS = 1500;
// the gap between the element and the bubble, and the least distance to the window's edges
const GAP_PX = 14;
const EDGE_PX = 8;

type ChildProps = {
  "aria-label"?: string;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onPointerUp?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
};

type Props = { title: ReactNode; children: ReactElement<ChildProps> };

function Bubble({ id, anchor, title }: { id: string; anchor: HTMLElement; title: ReactNode }) {
  const theme = useTheme();
  const ref = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ left: number; top: number } | null>(null);

  // below the element and centred on it, above when there is no room below, kept inside the window
  useLayoutEffect(() => {
    const position = () => {
      const bubble = ref.current;
      if (!bubble) return;
      const at = anchor.getBoundingClientRect();
      const { width, height } = bubble.getBoundingClientRect();
      const below = at.bottom + GAP_PX;
      const top = below + height > window.innerHeight - EDGE_PX ? at.top - GAP_PX - height : below;
      const left = Math.min(Math.max(at.left + at.width / 2 - width / 2, EDGE_PX), window.innerWidth - EDGE_PX - width);
      setPlace({ left, top });
    };
    position();
    window.addEventListener("scroll", position, true);
    window.addEventListener("resize", position);
    return () => {
      window.removeEventListener("scroll", position, true);
      window.removeEventListener("resize", position);
    };
  }, [anchor]);

  return createPortal(
    <div
      ref={ref}
      id={id}
      role="tooltip"
      style={{
        position: "fixed",
        left: place?.left ?? 0,
        top: place?.top ?? 0,
        visibility: place ? "visible" : "hidden",
        zIndex: theme.zIndex.tooltip,
        pointerEvents: "none",
        maxWidth: 300,
        padding: "4px 8px",
        borderRadius: theme.shape.borderRadius,
        backgroundColor: theme.alpha(theme.palette.grey[700], 0.92),
        color: theme.palette.common.white,
        fontFamily: theme.typography.fontFamily,
        fontSize: theme.typography.pxToRem(11),
        fontWeight: theme.typography.fontWeightMedium,
        overflowWrap: "break-word",
      }}
    >
      {title}
    </div>,
    document.body,
  );
}

/**
 * The first screens' hover hints (the top bar's buttons, the inbox's rows and filters): MUI's
 * Tooltip brings Popper.js and its own transitions, ~10 KB as sent and a dozen hooks a row, for a
 * bubble under a button. This one draws the same bubble (MUI's look and timings: on hover, on keyboard
 * focus, on a long press) and names the element with a text title as MUI's does (`aria-label`).
 * Screens opened later keep MUI's Tooltip (placements, arrows, interactive content).
 */
export default function LightTooltip({ title, children }: Props) {
  const id = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const own = children.props;

  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (!anchor) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setAnchor(null);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [anchor]);

  const later = (ms: number, next: HTMLElement | null) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setAnchor(next), ms);
  };
  const close = () => {
    clearTimeout(timer.current);
    setAnchor(null);
  };

  const shown = anchor !== null && title !== null && title !== undefined && title !== "";
  return (
    <>
      {cloneElement(children, {
        "aria-label": typeof title === "string" ? title : own["aria-label"],
        ...(shown && typeof title !== "string" ? { "aria-labelledby": id } : {}),
        onPointerEnter: (event) => {
          own.onPointerEnter?.(event);
          if (event.pointerType !== "touch") later(ENTER_MS, event.currentTarget);
        },
        onPointerLeave: (event) => {
          own.onPointerLeave?.(event);
          if (event.pointerType !== "touch") close();
        },
        onPointerDown: (event) => {
          own.onPointerDown?.(event);
          if (event.pointerType === "touch") later(TOUCH_ENTER_MS, event.currentTarget);
        },
        onPointerUp: (event) => {
          own.onPointerUp?.(event);
          if (event.pointerType === "touch") later(anchor ? TOUCH_LEAVE_MS : 0, null);
        },
        onFocus: (event) => {
          own.onFocus?.(event);
          // as MUI's: a focus from the keyboard shows it, a click's focus does not
          if (event.currentTarget.matches(":focus-visible")) setAnchor(event.currentTarget);
        },
        onBlur: (event) => {
          own.onBlur?.(event);
          close();
        },
      } satisfies ChildProps)}
      {shown && <Bubble id={id} anchor={anchor} title={title} />}
    </>
  );
}

import { Limits } from "@charla/contracts";
import { fileStamp } from "../../../lib/company-time";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { type Recording, startRecording } from "./audio-recorder";

/**
 * The composer's voice note (core §4: idle → recording → sent or cancelled). Notes under
 * `Limits.audioMinBytes` are dropped (core §5), the rest is handed over as an MP3 file.
 */
export function useVoiceNote(onRecorded: (file: File) => Promise<void>) {
  const { t } = useTranslation("chat");
  const recording = useRef<Recording | null>(null);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => () => recording.current?.cancel(), []);

  const start = useCallback(async () => {
    if (recording.current) return;
    if (!navigator.mediaDevices?.getUserMedia) {
      toast.error(t("audio.unsupported"));
      return;
    }
    try {
      recording.current = await startRecording();
      setStartedAt(Date.now());
    } catch {
      toast.error(t("audio.permission"));
    }
  }, [t]);

  const cancel = useCallback(() => {
    recording.current?.cancel();
    recording.current = null;
    setStartedAt(null);
  }, []);

  const finish = useCallback(async () => {
    const current = recording.current;
    if (!current) return;
    setBusy(true);
    try {
      const blob = await current.stop();
      recording.current = null;
      if (blob.size < Limits.audioMinBytes) {
        toast.info(t("audio.tooShort"));
        return;
      }
      const name = `audio-${fileStamp()}.mp3`;
      await onRecorded(new File([blob], name, { type: "audio/mpeg" }));
    } finally {
      recording.current = null;
      setBusy(false);
      setStartedAt(null);
    }
  }, [onRecorded, t]);

  return { recording: startedAt !== null, startedAt: startedAt ?? 0, busy, start, cancel, finish };
}

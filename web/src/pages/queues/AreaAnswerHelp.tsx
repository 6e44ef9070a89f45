import { type Control, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { useAutomationChoices } from "../../components/automation/AutomationSelect";
import { areaAnswer } from "../../components/automation/answering";
import type { QueueValues } from "./queue-form";

/**
 * The area dialog's help under its pickers: which one answers when several apply (the server's rule),
 * and who answers this area now, as the form stands (the prompt chosen, else the typebot, else a
 * prompt saved with the area in its own dialog).
 */
export function AreaAnswerHelp(props: {
  control: Control<QueueValues>;
  areaId: number | null;
  choices: ReturnType<typeof useAutomationChoices>;
}) {
  const { t } = useTranslation("queues");
  const [promptId, integrationId] = useWatch({ control: props.control, name: ["promptId", "integrationId"] });
  const answer = areaAnswer(
    { id: props.areaId, promptId, integrationId },
    props.choices.prompts ?? [],
    props.choices.integrations ?? [],
  );
  const now =
    answer.kind === "prompt"
      ? t(answer.bound ? "modal.answerBound" : "modal.answerPrompt", { name: answer.name })
      : answer.kind === "typebot"
        ? t("modal.answerTypebot", { name: answer.name })
        : t("modal.answerNone");
  return (
    <>
      {t("modal.promptRule")} <strong data-testid="queue-answer-now">{now}</strong>
    </>
  );
}

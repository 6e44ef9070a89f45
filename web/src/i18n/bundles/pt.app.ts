import { byNamespace } from "./by-namespace";

// Every other area's texts, for the signed-in screens; see ../texts.ts for the split.
export default byNamespace(
  import.meta.glob(
    [
      "../pt/*.json",
      "!../pt/common.json",
      "!../pt/login.json",
      // the page namespaces of ../texts.ts: fetched with their pages
      "!../pt/home.json",
      "!../pt/queues.json",
      "!../pt/tags.json",
      "!../pt/quick-messages.json",
      "!../pt/kanban.json",
      "!../pt/contact-lists.json",
      "!../pt/campaigns.json",
      "!../pt/file-lists.json",
      "!../pt/users.json",
      "!../pt/settings.json",
      "!../pt/simulator.json",
      "!../pt/todolist.json",
      "!../pt/helps.json",
      "!../pt/financeiro.json",
      "!../pt/messagesApi.json",
      "!../pt/signup.json",
      "!../pt/prompts.json",
    ],
    { eager: true, import: "default" },
  ),
);

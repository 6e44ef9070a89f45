import { byNamespace } from "./by-namespace";

// Every other area's texts, for the signed-in screens; see ../texts.ts for the split.
export default byNamespace(
  import.meta.glob(
    [
      "../es/*.json",
      "!../es/common.json",
      "!../es/login.json",
      // the page namespaces of ../texts.ts: fetched with their pages
      "!../es/home.json",
      "!../es/queues.json",
      "!../es/tags.json",
      "!../es/quick-messages.json",
      "!../es/kanban.json",
      "!../es/contact-lists.json",
      "!../es/campaigns.json",
      "!../es/file-lists.json",
      "!../es/users.json",
      "!../es/settings.json",
      "!../es/simulator.json",
      "!../es/todolist.json",
      "!../es/helps.json",
      "!../es/financeiro.json",
      "!../es/messagesApi.json",
      "!../es/signup.json",
      "!../es/prompts.json",
    ],
    { eager: true, import: "default" },
  ),
);

import { byNamespace } from "./by-namespace";

// Every other area's texts, for the signed-in screens; see ../texts.ts for the split.
export default byNamespace(
  import.meta.glob(
    [
      "../en/*.json",
      "!../en/common.json",
      "!../en/login.json",
      // the page namespaces of ../texts.ts: fetched with their pages
      "!../en/home.json",
      "!../en/queues.json",
      "!../en/tags.json",
      "!../en/quick-messages.json",
      "!../en/kanban.json",
      "!../en/contact-lists.json",
      "!../en/campaigns.json",
      "!../en/file-lists.json",
      "!../en/users.json",
      "!../en/settings.json",
      "!../en/simulator.json",
      "!../en/todolist.json",
      "!../en/helps.json",
      "!../en/financeiro.json",
      "!../en/messagesApi.json",
      "!../en/signup.json",
      "!../en/prompts.json",
    ],
    { eager: true, import: "default" },
  ),
);

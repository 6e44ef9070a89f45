import type { Services } from "../../context.js";
import type {
  ChannelDriver,
  DriverContext,
  DriverFactory,
  MediaPayload,
  ReadReceipt,
  SendOptions,
  Sent,
  Share,
} from "../driver.js";

type Load = (ctx: DriverContext) => Promise<ChannelDriver>;

/**
 * Provider "beta" with Baileys loaded by the first session that runs, not at start: the library alone
 * holds ~64 MB, which a process with no WhatsApp Web session to run (an API node of a scaled-out
 * install, whose sessions are leased elsewhere; a demo on the simulator) never needs.
 */
export function lazyBaileysFactory(s: Services): DriverFactory {
  let factory: Promise<DriverFactory> | null = null;
  const load: Load = async (ctx) => {
    factory ??= Promise.all([import("./driver.js"), import("../baileys-deps.js")]).then(([driver, deps]) =>
      driver.baileysFactory(deps.baileysDeps(s)),
    );
    return (await factory)(ctx);
  };
  return (ctx) => new LazyDriver(() => load(ctx));
}

/** Forwards every call to the driver, built on the first one. */
class LazyDriver implements ChannelDriver {
  readonly provider = "beta";
  #driver: Promise<ChannelDriver> | null = null;
  constructor(private readonly build: () => Promise<ChannelDriver>) {}

  private get driver(): Promise<ChannelDriver> {
    this.#driver ??= this.build();
    return this.#driver;
  }

  connect = async () => (await this.driver).connect();
  disconnect = async () => (await this.driver).disconnect();
  sendText = async (number: string, body: string, opts?: SendOptions): Promise<Sent> =>
    (await this.driver).sendText(number, body, opts);
  sendMedia = async (number: string, media: MediaPayload & { caption?: string }, opts?: SendOptions): Promise<Sent> =>
    (await this.driver).sendMedia(number, media, opts);
  sendShared = async (number: string, share: Share, opts?: SendOptions): Promise<Sent> =>
    (await this.driver).sendShared(number, share, opts);
  deleteForEveryone = async (number: string, channelId: string, fromMe: boolean, opts?: SendOptions) =>
    (await this.driver).deleteForEveryone(number, channelId, fromMe, opts);
  markRead = async (number: string, receipts: ReadReceipt[], opts?: SendOptions) =>
    (await this.driver).markRead(number, receipts, opts);
  profilePicture = async (number: string) => (await this.driver).profilePicture(number);
  checkNumber = async (number: string) => (await this.driver).checkNumber(number);
  contactsBook = async () => (await this.driver).contactsBook();
  pairWithCode = async (number: string) => (await this.driver).pairWithCode?.(number);
  typing = async (number: string, on: boolean, opts?: SendOptions) => (await this.driver).typing?.(number, on, opts);
  requestNewQr = async () => {
    const d = await this.driver;
    return d.requestNewQr ? d.requestNewQr() : d.connect();
  };
  logout = async () => {
    const d = await this.driver;
    return d.logout ? d.logout() : d.disconnect();
  };
  // nothing loaded yet: nothing received, nothing to wait for
  whenIdle = async () => (this.#driver ? (await this.#driver).whenIdle?.() : undefined);
}

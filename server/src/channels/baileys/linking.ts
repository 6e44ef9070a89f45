import type { BaileysConnection } from "./connection.js";
import { type BaileysSocket, channelError, type DriverBase } from "./socket.js";

/**
 * The session's link to a phone: shown as a QR, or as a code typed on the phone; forgotten on logout
 * or for a new QR. Works on the connection's socket (connection.ts).
 */
export class Linking {
  /** The phone number to link by code instead of QR (pairWithCode), until the link opens. */
  private pairingNumber: string | null = null;
  private codeAsked = false;

  constructor(
    private readonly base: DriverBase,
    private readonly connection: BaileysConnection,
  ) {}

  /** Unlinks the phone (when linked), forgets the creds and stops. */
  async logout(): Promise<void> {
    await this.unlink((err) => this.base.log.warn({ err, ...this.base.ref }, "whatsapp logout failed"));
    await this.connection.status.say("DISCONNECTED");
  }

  /** The "new QR" button: forget the link and pair again. */
  async requestNewQr(): Promise<void> {
    this.pairingNumber = null;
    await this.unlink(() => undefined);
    await this.connection.connect();
  }

  /** Stops the socket, logging the phone out when linked, and forgets the link. */
  private async unlink(logoutFailed: (err: unknown) => void) {
    const c = this.connection;
    const sock = c.sock;
    const wasConnected = c.connected;
    c.halt({ end: false });
    if (sock) {
      if (wasConnected) await sock.logout().catch(logoutFailed);
      await c.endSocket(sock);
    }
    await c.forgetLink();
  }

  /**
   * Link by a code typed on the phone instead of the QR. Asked as soon as the socket is waiting for a
   * link (at once if it already is, else at its first QR); a linked session has nothing to pair.
   */
  async pairWithCode(number: string): Promise<void> {
    const digits = number.replace(/\D/g, "");
    if (digits.length < 8 || digits.length > 20) throw channelError("ERR_WAPP_INVALID_CONTACT", "invalid number");
    const c = this.connection;
    if (c.connected) return;
    this.pairingNumber = digits;
    const sock = c.sock;
    if (sock && c.qrOnThisSocket && !this.codeAsked) await this.showPairingCode(sock);
    // a stopped session (TIMEOUT) starts again, and its first QR asks for the code
    else if (!sock && c.stopped) await c.connect();
  }

  private async showPairingCode(sock: BaileysSocket) {
    const number = this.pairingNumber;
    if (!number || !sock.requestPairingCode) return;
    this.codeAsked = true;
    try {
      const code = await sock.requestPairingCode(number);
      if (this.connection.sock !== sock || this.connection.connected) return;
      // the code goes where the QR goes: to those who may manage connections only
      await this.connection.status.say("PAIRING", { qrcode: code });
    } catch (err) {
      this.codeAsked = false;
      this.base.log.warn({ err, ...this.base.ref }, "whatsapp pairing code not obtained");
      throw channelError("ERR_WAPP_NOT_INITIALIZED", "pairing code not obtained", err);
    }
  }

  /** A new socket has asked for no code yet. */
  socketMade() {
    this.codeAsked = false;
  }

  /** A QR on the socket: shown, or, linking by code, the moment to ask for the code (valid while the QRs turn). */
  qrShown(sock: BaileysSocket, qr: string, count: number) {
    if (this.pairingNumber) {
      // nobody waits for this one: its failure is logged in showPairingCode, the next QR asks again
      if (!this.codeAsked) this.showPairingCode(sock).catch(() => undefined);
    } else void this.connection.status.say("qrcode", { qrcode: qr, retries: count });
  }

  linked() {
    this.pairingNumber = null;
  }
}

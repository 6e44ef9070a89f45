import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** The two origins the help videos need (contracts' youtubeThumbnail and youtubeEmbed), no wider. */
export const YOUTUBE_THUMBNAILS = "https://i.ytimg.com";
export const YOUTUBE_PLAYER = "https://www.youtube-nocookie.com";

/**
 * Security headers on every response, the web app's and the API's alike. The policy lets the page
 * load only what Charla itself serves: a message's text, a location's link or a contact's field can
 * never make the browser fetch a foreign image or script, and no other site may frame Charla.
 *
 * Exceptions, each for a reason:
 * - `style-src 'unsafe-inline'`: MUI (emotion) writes its styles into <style> elements at run time.
 * - `img-src https://*.whatsapp.net`: contacts' profile pictures are the URLs WhatsApp itself hands
 *   out (never text a contact can set).
 * - `blob:`/`data:`: media fetched with the user's token is shown through object URLs.
 * - help videos (/helps): their thumbnails from `https://i.ytimg.com` and YouTube's privacy-enhanced
 *   player `https://www.youtube-nocookie.com` in a frame; the ids come from super users' Ayuda tab,
 *   and the page shows a placeholder when either origin is blocked.
 * - no `upgrade-insecure-requests`: a plain-HTTP install on a LAN address must keep working.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:", "https://*.whatsapp.net", YOUTUBE_THUMBNAILS],
        mediaSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", "blob:"],
        objectSrc: ["'none'"],
        frameSrc: [YOUTUBE_PLAYER],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    // media and avatars are fetched by the app itself; nothing of Charla's is meant to be embedded elsewhere
    crossOriginResourcePolicy: { policy: "same-origin" },
    crossOriginEmbedderPolicy: false,
  });
});

import { LoginForm, storableText } from "@charla/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Services } from "../../context.js";
import { bearerOf } from "../../plugins/auth.js";
import { signupRoutes } from "../signup/routes.js";
import { buildSessionUser } from "./session-user.js";
import { type Issued, login, logout, refresh } from "./service.js";

export const REFRESH_COOKIE = "charla_rt";
const COOKIE_PATH = "/api/v1/auth";

export async function authRoutes(app: FastifyInstance, s: Services) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Secure whenever the browser came over HTTPS (directly, or through a proxy trusted with TRUST_PROXY),
  // not only when COOKIE_SECURE says so; plain-HTTP installs on a LAN still get their cookie
  const setCookie = (req: FastifyRequest, reply: FastifyReply, issued: Issued) =>
    reply.setCookie(REFRESH_COOKIE, issued.refreshToken, {
      httpOnly: true,
      sameSite: "strict",
      secure: s.config.cookieSecure || req.protocol === "https",
      path: COOKIE_PATH,
      maxAge: s.config.refreshTokenTtlSec,
    });
  const client = (req: FastifyRequest) => ({ ip: req.ip, userAgent: storableText(String(req.headers["user-agent"] ?? "")) });

  r.post("/auth/login", { schema: { body: LoginForm }, config: { public: true } }, async (req, reply) => {
    const issued = await login(s, req.body, client(req));
    setCookie(req, reply, issued);
    return { token: issued.token, user: issued.user };
  });

  r.post("/auth/refresh_token", { config: { public: true } }, async (req, reply) => {
    try {
      const issued = await refresh(s, req.cookies[REFRESH_COOKIE]);
      setCookie(req, reply, issued);
      return { token: issued.token, user: issued.user };
    } catch (err) {
      reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
      throw err;
    }
  });

  r.delete("/auth/logout", { config: { public: true } }, async (req, reply) => {
    const bearer = bearerOf(req);
    const sid = bearer
      ? await s.tokens.verifyAccess(bearer).then(
          (c) => c.sessionId,
          () => null,
        )
      : null;
    await logout(s, req.cookies[REFRESH_COOKIE], sid);
    reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
    return reply.status(204).send();
  });

  r.get("/auth/me", { config: { authenticated: true } }, (req) => buildSessionUser(s.db, req.ctx.companyId, req.ctx.user.id));

  signupRoutes(app, s, { setCookie, client });
}

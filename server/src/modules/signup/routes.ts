import { SignupForm } from "@charla/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Services } from "../../context.js";
import type { Issued } from "../auth/service.js";
import { signup, signupInfo } from "./service.js";

/** What the auth routes share with sign-up, so its answer and cookie are the login's own. */
export type LoginReply = {
  setCookie: (req: FastifyRequest, reply: FastifyReply, issued: Issued) => void;
  client: (req: FastifyRequest) => { ip: string; userAgent: string };
};

/** The public sign-up (core §2): GET tells whether it is open, POST creates the company and logs its admin in. */
export function signupRoutes(app: FastifyInstance, s: Services, login: LoginReply) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get("/auth/signup", { config: { public: true } }, () => signupInfo(s));
  r.post("/auth/signup", { schema: { body: SignupForm }, config: { public: true } }, async (req, reply) => {
    const issued = await signup(s, req.body, login.client(req));
    login.setCookie(req, reply, issued);
    return reply.status(201).send({ token: issued.token, user: issued.user });
  });
}

import { LoginForm } from "@charla/contracts";
import { zodResolver } from "@hookform/resolvers/zod";

/** The login form's contract schema as a react-hook-form resolver; LoginPage loads it on first use. */
export const loginResolver = zodResolver(LoginForm);

import argon2 from "argon2";

type Argon2Options = { type: typeof argon2.argon2id; memoryCost: number; timeCost: number; parallelism: number };

/**
 * argon2id with 64 MiB, 3 passes and 4 lanes (node-argon2's defaults, above OWASP's minimum),
 * written out so that a library upgrade cannot change what new hashes cost without a test noticing.
 */
export const PRODUCTION_ARGON2: Readonly<Argon2Options> = Object.freeze({
  type: argon2.argon2id,
  memoryCost: 65_536,
  timeCost: 3,
  parallelism: 4,
});

let options: Readonly<Argon2Options> = PRODUCTION_ARGON2;

export const hashPassword = (plain: string) => argon2.hash(plain, options);

/** Verifies with the parameters stored in the hash itself, whatever hashed it. */
export const verifyPassword = (hash: string, plain: string) => argon2.verify(hash, plain).catch(() => false);

/**
 * Tests only (their setup file calls it; nothing in the server does, and no setting or variable
 * reaches it): a production hash took ~0.5 s per login on the 2-core test machine, and a file
 * logs in dozens of times. Still argon2id, so login and password changes run the same code.
 */
export function useCheapPasswordHashingInTests() {
  options = Object.freeze({ type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });
}

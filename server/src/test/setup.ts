import { useCheapPasswordHashingInTests } from "../lib/password-hash.js";

// every file: a production argon2 hash costs ~0.5 s on the test machine, paid at each login
// (password-hash.test.ts checks what production uses)
useCheapPasswordHashingInTests();

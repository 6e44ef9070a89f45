// `npm start` builds what is missing or older than its sources, so a fresh clone needs only
// `npm install && npm start`.
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const newest = (dir) => {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === "dist") continue;
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
};
const mtime = (f) => (existsSync(f) ? statSync(f).mtimeMs : 0);

const steps = [
  { name: "contracts", src: ["contracts/src"], out: "contracts/dist/index.js" },
  { name: "server", src: ["server/src", "contracts/src"], out: "server/dist/main.js" },
  { name: "web", src: ["web/src", "web/index.html", "contracts/src"], out: "web/dist/index.html" },
];
for (const s of steps) {
  const srcTime = Math.max(...s.src.map((p) => (existsSync(p) && statSync(p).isDirectory() ? newest(p) : mtime(p))));
  if (mtime(s.out) < srcTime) {
    console.log(`building ${s.name}…`);
    execSync(`npm run build -w ${s.name}`, { stdio: "inherit" });
  }
}

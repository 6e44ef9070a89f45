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

const describe = {
  contracts: "compiling the shared schemas (TypeScript)",
  server: "compiling the server (TypeScript)",
  web: "bundling the web app (Vite)",
};
const steps = [
  { name: "contracts", src: ["contracts/src"], out: "contracts/dist/index.js" },
  { name: "server", src: ["server/src", "contracts/src"], out: "server/dist/main.js" },
  { name: "web", src: ["web/src", "web/index.html", "contracts/src"], out: "web/dist/index.html" },
];
const stale = steps.filter((s) => {
  const srcTime = Math.max(...s.src.map((p) => (existsSync(p) && statSync(p).isDirectory() ? newest(p) : mtime(p))));
  return mtime(s.out) < srcTime;
});
if (stale.length > 0) {
  // The first start compiles everything (about a minute on 2 cores); say so, or it looks hung.
  console.log(`Charla: building ${stale.map((s) => s.name).join(", ")} before starting (once; about a minute the first time)…`);
  const started = Date.now();
  for (const [i, s] of stale.entries()) {
    const t = Date.now();
    console.log(`  [${i + 1}/${stale.length}] ${s.name}: ${describe[s.name]}…`);
    execSync(`npm run build --silent -w ${s.name}`, { stdio: "inherit" });
    console.log(`  [${i + 1}/${stale.length}] ${s.name} built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  console.log(`Charla: build finished in ${((Date.now() - started) / 1000).toFixed(1)} s; starting the server.`);
}

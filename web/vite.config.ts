import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig } from "vite";

// The API and the socket live on the server's port; in dev and preview they are proxied so the app stays same-origin.
const backend = "http://localhost:8080";
const proxy = {
  "/api": { target: backend, changeOrigin: true },
  "/socket.io": { target: backend, changeOrigin: true, ws: true },
};

export default defineConfig({
  plugins: [react()],
  // "source" first: @charla/contracts is consumed from its TypeScript sources, no prior build needed.
  resolve: { conditions: ["source", ...defaultClientConditions] },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: { outDir: "dist", emptyOutDir: true },
});

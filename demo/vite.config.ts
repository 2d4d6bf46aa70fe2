import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// `npm run demo` -> `vite demo`: a local playground that imports the library
// by its package name, aliased to the TypeScript source (no build needed).
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  resolve: {
    alias: [
      {
        find: /^airlock$/,
        replacement: fileURLToPath(new URL("../src/index.ts", import.meta.url)),
      },
    ],
  },
  server: {
    host: "127.0.0.1",
    port: 5173,
    strictPort: false,
    fs: { allow: [fileURLToPath(new URL("..", import.meta.url))] },
  },
  preview: { host: "127.0.0.1" },
});

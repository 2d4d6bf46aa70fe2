/**
 * The agent page's entry. zod 4 compiles object parsers with `new Function` unless told not to,
 * and decides whether it may when an object schema is made, which the AI SDK does as it is
 * imported. This page's CSP has no 'unsafe-eval' (and Trusted Types guard the Function
 * constructor), so zod's probe would be a reported violation: zod is set to run without
 * compiling first, and only then is the page (and the AI SDK with it) loaded. A static import
 * would not do: imports run before the module that imports them.
 *
 * (The page's module keeps its work in `startAgentPage`, called here, rather than at its top
 * level: the package says `"sideEffects": false`, and a bundler may drop a module whose only
 * effect is at its top level.)
 */
import { z } from "zod";

z.config({ jitless: true });
const { startAgentPage } = await import("./page.ts");
startAgentPage();

// Types for `import "agent-airlock/preview.css"`: a stylesheet exports nothing, and TypeScript
// checks side-effect imports (noUncheckedSideEffectImports), so the import needs a declaration.
export {};

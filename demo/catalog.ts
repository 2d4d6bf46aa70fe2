/**
 * The built-in samples as the page lists them. Only names and suggested options live here: the
 * inputs themselves are generated inside the worker (`generators.ts`), so a 50 MB log is never
 * built on the page's thread or copied across to the worker.
 */
export interface SampleInfo {
  readonly id: string;
  readonly title: string;
  /** The tool name the result is fenced under. */
  readonly tool: string;
  /** A projection that suits the sample (structured samples only). */
  readonly fields?: string;
}

export const catalog: readonly SampleInfo[] = [
  { id: "app-log", title: "50 MB application log, one error in the middle", tool: "tail_logs" },
  { id: "test-run", title: "test run: a failure on stderr, exit code 1", tool: "npm_test" },
  {
    id: "issues",
    title: "GitHub issue list (JSON, 300 issues)",
    tool: "github.list_issues",
    fields: "[*].{number,title,state,labels[*].name,user.login,comments}",
  },
  { id: "sql", title: "SQL result (JSON rows, 20,000 orders)", tool: "sql.query" },
  { id: "article", title: "article page with a hidden prompt injection (HTML)", tool: "web_fetch" },
  { id: "env", title: ".env dump with (fake) secrets", tool: "read_file" },
  { id: "csv", title: "CSV export (10,000 rows)", tool: "export_csv" },
  { id: "binary", title: "binary bytes (PNG header + random data)", tool: "read_file" },
  { id: "build", title: "failing build: long stdout, short stderr (README example)", tool: "bash" },
  { id: "progress", title: "download with progress bars and repeated lines", tool: "bash" },
  { id: "injection", title: "content that tries to close the fence", tool: "web_fetch" },
];

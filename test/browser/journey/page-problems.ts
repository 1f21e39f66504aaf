// What a document reports as going wrong, recorded by the document itself: uncaught errors, unhandled rejections and
// Content Security Policy violations. The one record every engine gives, WebKitWebDriver having no console.

interface PageProblems {
  fanPollsProblems?: string[];
}

/** Runs in the document: every problem it reports from now on is kept. */
export function recordPageProblems(): boolean {
  const kept: string[] = [];
  (window as unknown as PageProblems).fanPollsProblems = kept;
  window.addEventListener('error', (event) => {
    kept.push(`uncaught: ${event.message}`);
  });
  window.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
    kept.push(`unhandled rejection: ${String(event.reason)}`);
  });
  document.addEventListener('securitypolicyviolation', (event) => {
    kept.push(`refused by ${event.violatedDirective}: ${event.blockedURI}`);
  });
  return true;
}

/** Runs in the document: the problems kept since `recordPageProblems` (none if it was reloaded since). */
export function readPageProblems(): string[] {
  return (window as unknown as PageProblems).fanPollsProblems ?? [];
}

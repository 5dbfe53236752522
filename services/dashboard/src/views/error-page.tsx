/** The body of an error page; page-kit.ts puts it in the layout (signed in) or the bare one. */
export function ErrorMessage(props: { readonly status: number; readonly message: string }) {
  return (
    <section class="error" data-testid="error" data-status={String(props.status)}>
      <p>{props.message}</p>
      <p>
        <a href="/dashboard">Back to the overview</a>
      </p>
    </section>
  );
}

/** Titles of the error pages, by status. */
export function errorTitle(status: number): string {
  switch (status) {
    case 403:
      return 'Not allowed';
    case 404:
      return 'Not found';
    case 429:
      return 'Too many attempts';
    default:
      return status >= 500 ? 'Something went wrong' : 'Request refused';
  }
}

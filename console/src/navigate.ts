/** Moves to a console address without reloading the page: the app follows `popstate`, as for Back and Forward. */
export function navigate(to: string): void {
  history.pushState(null, '', to);
  dispatchEvent(new PopStateEvent('popstate'));
}

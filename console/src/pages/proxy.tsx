import { useEffect, useState } from 'preact/hooks';
import { type Departures, proxy } from '../api';
import { Alert, useAction } from '../components';

/**
 * The validation proxy's departures (docs/proxy.md): per operation, where the real service departs from Atrium's
 * schemas, read from the journal `atrium proxy` writes (`GET /admin/v1/proxy/departures`).
 */
export function ProxyPage() {
  const [report, setReport] = useState<Departures | undefined>();
  const { error, run } = useAction();
  const load = () => run(async () => setReport(await proxy.departures()));
  useEffect(() => {
    void load();
  }, []);

  return (
    <section aria-labelledby="proxy-title">
      <h1 id="proxy-title">Proxy departures</h1>
      {error && <Alert>{error}</Alert>}
      <p>
        <button type="button" class="secondary" onClick={() => void load()}>
          Refresh
        </button>
      </p>
      {report && report.operations.length === 0 && (
        <p data-testid="proxy-empty">
          No call has gone through the validation proxy yet. Start it in front of the real service, on this server's
          machine with the same data directory (<code>ATRIUM_DATA_DIR</code>, or the same{' '}
          <code>ATRIUM_PROXY_JOURNAL</code>): <code>atrium proxy --target https://tenant.example.com</code>. Point your
          client at it (<code>http://127.0.0.1:8090</code>); what departs from Atrium's schemas shows here.
        </p>
      )}
      {report && report.operations.length > 0 && (
        <>
          <p data-testid="proxy-summary">
            {report.calls} calls, {report.operations.length} operations, {report.departures} departures.
          </p>
          {report.operations.map((o) => (
            <section key={o.operation} aria-label={o.operation}>
              <h2>
                <code>{o.operation}</code>
              </h2>
              <p>
                {o.calls} calls, {o.departing} departing{o.api ? ` (${o.api})` : ''}.
              </p>
              {o.departures.length === 0 ? (
                <p class="muted">No departure.</p>
              ) : (
                <table>
                  <caption class="visually-hidden">Departures of {o.operation}, most frequent first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Kind</th>
                      <th scope="col">Field</th>
                      <th scope="col">Expected</th>
                      <th scope="col">Actual</th>
                      <th scope="col">Count</th>
                      <th scope="col">Last seen</th>
                    </tr>
                  </thead>
                  <tbody>
                    {o.departures.map((d) => (
                      <tr key={`${d.direction} ${d.kind} ${d.field} ${d.expected} ${d.actual}`}>
                        <td data-label="Kind">
                          {d.direction} {d.kind}
                        </td>
                        <td data-label="Field">
                          <code>{d.field}</code>
                        </td>
                        <td data-label="Expected">{d.expected}</td>
                        <td data-label="Actual">{d.actual}</td>
                        <td data-label="Count">{d.count}</td>
                        <td data-label="Last seen">{d.last_seen}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          ))}
        </>
      )}
    </section>
  );
}

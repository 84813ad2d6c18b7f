// @vitest-environment jsdom
// Client logic in rendered components: the calls list keeps its filters in the URL, the sign-in
// page words API errors in the UI language, upload answers are read per file.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement as h, type ReactNode } from 'react';
import { Provider, type Client } from 'urql';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromValue, never } from 'wonka';
import { I18nProvider, type Lang } from '../../src/web/i18n/index.tsx';
import { SelectField, TextArea, ToastProvider } from '../../src/web/components/ui.tsx';
import { ScoreBandsContext, StatusBadge } from '../../src/web/components/call-bits.tsx';
import { DeliveryBadge, useAttemptsText } from '../../src/web/components/delivery.tsx';
import { QaScore } from '../../src/web/components/qa-badges.tsx';
import { SpeakersNotice } from '../../src/web/components/speakers.tsx';
import { SetUpFirst } from '../../src/web/components/link-button.tsx';
import { problemSummary } from '../../src/web/components/OpsBanner.tsx';
import { CallsPage } from '../../src/web/pages/Calls.tsx';
import { EndpointDialog } from '../../src/web/pages/webhook-endpoints.tsx';
import { SUBSCRIBABLE_EVENT_TYPES } from '../../src/webhooks/kit/index.ts';
import { searchTerms } from '../../src/web/pages/CallDetail.tsx';
import { Transcript } from '../../src/web/components/transcript.tsx';
import { parseUploadResponse, looksLikeAudio } from '../../src/web/lib/upload.ts';
import { describeError } from '../../src/web/lib/errors.ts';
import { translate } from '../../src/web/i18n/index.tsx';

const AGENT = '3f2b8a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const AGENT_2 = '4a3c9b5f-2d3e-4f60-9b0c-1d2e3f4a5b6c';

function call(id: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    __typename: 'Call',
    id,
    status,
    startedAt: '2024-05-10T10:00:00.000Z',
    createdAt: '2024-05-10T10:00:00.000Z',
    updatedAt: '2024-05-10T10:00:00.000Z',
    durationSeconds: 62,
    direction: 'INBOUND',
    language: 'es',
    detectedLanguage: 'es',
    score: 75,
    topic: 'billing',
    criticalFailed: false,
    failureReason: null,
    failureDetail: null,
    customerPhone: '+34600111222',
    customerName: null,
    fileName: `${id}.mp3`,
    agent: { __typename: 'Agent', id: AGENT, name: 'Ana García' },
    campaign: null,
    ...extra,
  };
}

/** A urql client answering each operation by its name. */
function mockClient(answers: Record<string, (vars: any) => unknown>) {
  const seen: { name: string; variables: any }[] = [];
  const client = {
    executeQuery: vi.fn((op: any) => {
      const name = op.query.definitions[0].name.value;
      seen.push({ name, variables: op.variables });
      return fromValue({ operation: op, data: answers[name]?.(op.variables) ?? null, stale: false, hasNext: false });
    }),
    executeSubscription: vi.fn(() => never),
    executeMutation: vi.fn(() => never),
  } as unknown as Client;
  return { client, seen };
}

function renderWith(node: ReactNode, client: Client, lang: Lang = 'en') {
  return render(
    // biome-ignore lint/correctness/noChildrenProp: without JSX, the providers' prop types want children as a prop.
    h(I18nProvider, { lang, children: h(ToastProvider, { children: h(Provider, { value: client, children: node }) }) }),
  );
}

const answers = {
  CallsList: () => ({
    calls: {
      __typename: 'CallConnection',
      totalCount: 1,
      pageInfo: { __typename: 'PageInfo', hasNextPage: true, hasPreviousPage: false, startCursor: 'S', endCursor: 'E' },
      edges: [
        {
          __typename: 'CallEdge',
          node: call('c1', 'ANALYZED'),
          snippet: {
            __typename: 'SearchSnippet',
            text: 'Le envío la factura hoy',
            start: 65,
            speaker: 'agent',
            highlights: [{ __typename: 'TextRange', start: 12, end: 19 }],
          },
        },
      ],
    },
  }),
  CallCounts: () => ({
    inProgress: { __typename: 'CallConnection', totalCount: 2 },
    analyzed: { __typename: 'CallConnection', totalCount: 1 },
    failed: { __typename: 'CallConnection', totalCount: 0 },
  }),
  CallFilterOptions: () => ({
    agents: [
      { __typename: 'Agent', id: AGENT, name: 'Ana García', active: true },
      { __typename: 'Agent', id: AGENT_2, name: 'Bruno Díaz', active: true },
    ],
    campaigns: [],
    callFilterOptions: {
      __typename: 'CallFilterOptions',
      languages: ['en', 'es'],
      topicGroups: [{ __typename: 'TopicGroup', labels: ['Billing', 'Facturación'] }],
      criteria: [{ __typename: 'CriterionOption', key: 'greeting', label: 'Greets the customer' }],
    },
    account: { __typename: 'Account', id: 'a', defaultTemplate: null },
    templates: [],
  }),
};

beforeEach(() => {
  window.history.replaceState(null, '', '/calls');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('calls list', () => {
  it('renders the view tabs, counts, the not-analyzed banner and the rows', () => {
    const { client } = mockClient(answers);
    renderWith(h(CallsPage), client);
    expect(screen.getByTestId('count-in_progress').textContent).toBe('2');
    expect(screen.getByRole('tab', { name: /Analyzed/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('No template yet: calls are transcribed but not analyzed')).toBeTruthy();
    expect(screen.getAllByTestId('call-row')).toHaveLength(1);
    expect(screen.getByText('1 call')).toBeTruthy();
  });

  it('writes filters into the URL and queries with them', async () => {
    vi.useFakeTimers();
    const { client, seen } = mockClient(answers);
    renderWith(h(CallsPage), client);
    fireEvent.click(screen.getByRole('button', { name: 'Agent All agents' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Ana García' }));
    expect(window.location.search).toBe(`?agent=${AGENT}`);
    fireEvent.change(screen.getByLabelText('Search transcripts'), { target: { value: 'factura' } });
    expect(window.location.search).not.toContain('q=');
    await act(async () => vi.advanceTimersByTime(400));
    expect(new URLSearchParams(window.location.search).get('q')).toBe('factura');
    const last = seen.filter((s) => s.name === 'CallsList').at(-1)!;
    expect(last.variables.filter).toEqual({ view: 'ANALYZED', agentIds: [AGENT], search: 'factura' });
    const exportHref = screen.getByTestId('export-csv').getAttribute('href')!;
    expect(exportHref).toContain(`agentIds=${AGENT}`);
    expect(exportHref).toContain('search=factura');
  });

  it('takes several agents, one topic for both languages, a failed criterion and critical fails, and shows what matched', async () => {
    const { client, seen } = mockClient(answers);
    renderWith(h(CallsPage), client);
    fireEvent.click(screen.getByRole('button', { name: 'Agent All agents' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Ana García' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Bruno Díaz' }));
    expect(screen.getByRole('button', { name: 'Agent 2 agents' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /More filters/ }));
    const topic = screen.getByRole('combobox', { name: 'Topic' }) as HTMLSelectElement;
    expect([...topic.options].map((o) => o.textContent)).toEqual(['Any topic', 'Billing / Facturación']);
    fireEvent.change(topic, { target: { value: 'Billing' } });
    fireEvent.change(screen.getByLabelText('Failed criterion'), { target: { value: 'greeting' } });
    fireEvent.click(screen.getByLabelText('Critical fail only'));
    const last = seen.filter((s) => s.name === 'CallsList').at(-1)!;
    expect(last.variables.filter).toEqual({
      view: 'ANALYZED',
      agentIds: [AGENT, AGENT_2],
      topic: 'Billing',
      failedCriterion: 'greeting',
      criticalFail: true,
    });
    // No snippet row until there is a search; then the matching line, with the searched word marked.
    expect(screen.queryByTestId('call-snippet')).toBeNull();
    window.history.replaceState(null, '', '/calls?q=factura');
    cleanup();
    renderWith(h(CallsPage), mockClient(answers).client);
    const row = screen.getByTestId('call-snippet');
    expect(row.textContent).toContain('Agent');
    expect(row.textContent).toContain('Le envío la factura hoy');
    expect(row.querySelector('mark')?.textContent).toBe('factura');
  });

  it('reads its state back from the URL, sorts by clicking a column, and pages with cursors', () => {
    window.history.replaceState(null, '', '/calls?view=failed&scoreMin=10');
    const { client, seen } = mockClient(answers);
    renderWith(h(CallsPage), client);
    expect(screen.getByRole('tab', { name: /Failed/ }).getAttribute('aria-selected')).toBe('true');
    expect(seen.find((s) => s.name === 'CallsList')!.variables).toMatchObject({
      filter: { view: 'FAILED', scoreMin: 10 },
      first: 25,
      sort: 'STARTED_AT',
      order: 'DESC',
    });
    fireEvent.click(screen.getByRole('button', { name: /Duration/ }));
    expect(window.location.search).toBe('?view=failed&scoreMin=10&sort=duration');
    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(window.location.search).toContain('after=E');
    expect(seen.filter((s) => s.name === 'CallsList').at(-1)!.variables).toMatchObject({ after: 'E', first: 25 });
  });

  it('offers page sizes and page numbers, first and last page', () => {
    const many = {
      ...answers,
      CallsList: () => {
        const r = answers.CallsList();
        return { calls: { ...r.calls, totalCount: 120 } };
      },
    };
    const { client, seen } = mockClient(many);
    renderWith(h(CallsPage), client);
    expect(screen.getByTestId('page-of').textContent).toBe('Page 1 of 5');
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '50' } });
    expect(window.location.search).toBe('?size=50');
    expect(seen.filter((s) => s.name === 'CallsList').at(-1)!.variables).toMatchObject({ first: 50 });
    expect(screen.getByTestId('page-of').textContent).toBe('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(screen.getByTestId('page-of').textContent).toBe('Page 2 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Last page' }));
    expect(seen.filter((s) => s.name === 'CallsList').at(-1)!.variables).toMatchObject({ last: 50 });
    expect(screen.getByTestId('page-of').textContent).toBe('Page 3 of 3');
  });

  it('shows a critical fail as such, lists only the languages in use, and moves between tabs with arrows', () => {
    const critical = {
      ...answers,
      CallsList: () => {
        const r = answers.CallsList();
        return {
          calls: {
            ...r.calls,
            edges: [{ __typename: 'CallEdge', node: call('c1', 'ANALYZED', { score: 0, criticalFailed: true }) }],
          },
        };
      },
    };
    const { client } = mockClient(critical);
    window.history.replaceState(null, '', '/calls?language=fr');
    renderWith(h(CallsPage), client);
    const pill = screen.getByTestId('call-row').querySelector('[data-critical="true"]');
    expect(pill?.textContent).toMatch(/critical criterion failed/i);
    const options = Array.from((screen.getByRole('combobox', { name: 'Language' }) as HTMLSelectElement).options).map(
      (o) => o.value,
    );
    expect(options).toEqual(['', 'en', 'es', 'fr']);
    const analyzed = screen.getByRole('tab', { name: /Analyzed/ });
    const failed = screen.getByRole('tab', { name: /Failed/ });
    expect(analyzed.tabIndex).toBe(0);
    expect(failed.tabIndex).toBe(-1);
    analyzed.focus();
    fireEvent.keyDown(analyzed, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(failed);
    fireEvent.keyDown(failed, { key: 'Home' });
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: /In progress/ }));
  });

  it('speaks Spanish', () => {
    const { client } = mockClient(answers);
    renderWith(h(CallsPage), client, 'es');
    expect(screen.getByRole('tab', { name: /Analizadas/ })).toBeTruthy();
    expect(screen.getByText('1 llamada')).toBeTruthy();
    expect(screen.getByLabelText('Buscar en transcripciones')).toBeTruthy();
  });
});

describe('small pieces', () => {
  it('marks transcribed calls as not analyzed', () => {
    const { client } = mockClient({});
    renderWith(h(StatusBadge, { status: 'TRANSCRIBED' }), client, 'es');
    expect(screen.getByText('Sin analizar')).toBeTruthy();
  });

  it('shows a turn the recogniser could not make out as such, and its forced guess as a guess', () => {
    const { client } = mockClient({});
    const segments = [
      { start: 0.5, end: 3.5, speaker: 'agent', text: '', guessed: true },
      { start: 4, end: 7, speaker: 'customer', text: 'Hola, no tengo internet.' },
      { start: 8, end: 10, speaker: 'agent', text: 'Buenos días', guessed: true, uncertainWords: [0, 1] },
    ];
    renderWith(
      h(Transcript, { segments, time: 0, playing: false, onSeek: () => {}, status: 'ANALYZED' }),
      client,
      'es',
    );
    const rows = screen.getAllByTestId('segment');
    expect(rows[0]!.textContent).toContain('Habla que el reconocedor no pudo entender');
    expect(rows[1]!.textContent).not.toContain('Habla');
    expect(rows[2]!.textContent).toContain('Habla no entendida, mejor suposición:');
    expect(rows[2]!.textContent).toContain('Buenos días');
  });

  it('labels a text area and a select, points them at their hint, and marks them wrong with the error shown', () => {
    const { client } = mockClient({});
    const changed: string[] = [];
    renderWith(
      h('form', null, [
        h(TextArea, { key: 'a', label: 'Question', hint: 'One yes/no question', defaultValue: 'Did they?' }),
        h(
          SelectField,
          { key: 's', label: 'Window', error: 'Pick one', value: 'end', onChange: (e) => changed.push(e.target.value) },
          [h('option', { key: 'start', value: 'start' }, 'Start'), h('option', { key: 'end', value: 'end' }, 'End')],
        ),
      ]),
      client,
    );
    const area = screen.getByRole('textbox', { name: 'Question' });
    expect(area.tagName).toBe('TEXTAREA');
    expect(area.className).toBe('textarea');
    expect((area as HTMLTextAreaElement).value).toBe('Did they?');
    expect(document.getElementById(area.getAttribute('aria-describedby')!)!.textContent).toBe('One yes/no question');
    expect(area.getAttribute('aria-invalid')).toBeNull();
    const select = screen.getByRole('combobox', { name: 'Window' });
    expect(select.className).toBe('select');
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect((select as HTMLSelectElement).value).toBe('end');
    expect(screen.getByText('Pick one').className).toBe('error-text');
    fireEvent.change(select, { target: { value: 'start' } });
    expect(changed).toEqual(['start']);
  });

  it('says what to set up first and links to that page by its menu name, in either language', () => {
    const { client } = mockClient({});
    const alertOf = (page: 'team' | 'templates', title: string, children: string) =>
      h(SetUpFirst, { page, title, children });
    renderWith(alertOf('team', 'Add your agents first', 'Calls need an agent.'), client);
    const alert = screen.getAllByRole('status').find((x) => x.classList.contains('alert'))!;
    expect(alert.className).toBe('alert alert-amber');
    expect(alert.textContent).toContain('Add your agents first');
    expect(alert.textContent).toContain('Calls need an agent.');
    expect(screen.getByRole('link', { name: 'Team' }).getAttribute('href')).toBe('/team');
    cleanup();
    renderWith(alertOf('templates', 'Transcrita', 'Sin plantilla.'), client, 'es');
    expect(screen.getByRole('link', { name: 'Plantillas' }).getAttribute('href')).toBe('/templates');
  });

  it('highlights the words of a transcript search, not its operators', () => {
    expect(searchTerms('"le atiende" -idiota factura or cargo')).toEqual(['le atiende', 'factura', 'cargo']);
    expect(searchTerms(null)).toEqual([]);
  });

  it("says what a failed readiness check means in the admin's language, the server's detail aside", () => {
    const names = { en: { en: 'English', es: 'Spanish' }, es: { en: 'inglés', es: 'español' } } as const;
    const say = (lang: Lang, check: string) =>
      problemSummary(
        check,
        (k, v) => translate(lang, k, v),
        (c) => names[lang][c as 'en' | 'es'] ?? c,
      );
    expect(say('es', 'engine:es')).toBe(
      'Falta el modelo de voz de español o no se puede cargar; las llamadas en español esperan.',
    );
    expect(say('en', 'engine:en')).toBe(
      'The speech model for English is missing or cannot be loaded; calls in English wait.',
    );
    expect(say('es', 'decoder')).toBe('Falta el decodificador de audio (ffmpeg) o no funciona.');
    expect(say('es', 'database')).toBe('No se puede conectar con la base de datos.');
    expect(say('es', 'something_new')).toBe('Ha fallado una comprobación.');
  });

  it('words API errors for managers, in their language', () => {
    const t = (lang: Lang) => ({ t: (k: any, v?: any) => translate(lang, k, v) });
    expect(describeError(t('es'), { code: 'seat_limit', message: 'All 5 agent seats…' })).toMatch(/plazas/);
    expect(describeError(t('en'), { code: 'rate_limited', message: '', retryAfterSeconds: 600 })).toBe(
      'Too many attempts. Try again in 10 minutes.',
    );
    expect(describeError(t('en'), { code: 'something_new', message: 'Server words.' })).toBe('Server words.');
  });

  it('reads the upload endpoint answers per file', () => {
    expect(
      parseUploadResponse(
        200,
        JSON.stringify({ results: [{ fileName: 'a.wav', ok: true, id: 'x', status: 'queued', url: 'u' }] }),
        'a.wav',
      ),
    ).toMatchObject({ ok: true, id: 'x' });
    expect(parseUploadResponse(403, JSON.stringify({ error: { code: 'csrf', message: 'no' } }), 'a.wav')).toEqual({
      fileName: 'a.wav',
      ok: false,
      error: { code: 'csrf', message: 'no' },
    });
    expect(parseUploadResponse(0, '', 'a.wav').error!.code).toBe('network');
    expect(parseUploadResponse(502, '<html>', 'a.wav').error!.code).toBe('http_502');
    expect(looksLikeAudio({ name: 'call.MP3', type: '' })).toBe(true);
    expect(looksLikeAudio({ name: 'notes.pdf', type: 'application/pdf' })).toBe(false);
  });
});

describe('numbers, webhook states and score colours as the user reads them', () => {
  const { client } = mockClient({});
  // The default normalizer turns the non-breaking space Intl puts in "57 %" into a plain one.
  const keepSpaces = (text: string) => text.trim();

  it('writes the speaker-separation confidence with Intl: "57%" in English, "57 %" in Spanish', () => {
    renderWith(h(SpeakersNotice, { diarized: true, confidence: 0.57 }), client, 'en');
    expect(screen.getByText('Speakers separated automatically (confidence 57%).')).toBeTruthy();
    cleanup();
    renderWith(h(SpeakersNotice, { diarized: true, confidence: 0.57 }), client, 'es');
    // Exactly as Intl writes it in Spanish: a non-breaking space before the sign.
    expect(
      screen.getByText('Interlocutores separados automáticamente (confianza del 57\u00a0%).', {
        normalizer: keepSpaces,
      }),
    ).toBeTruthy();
  });

  it('calls a never-attempted delivery pending, not retrying with 0 attempts', () => {
    function Attempts({ n }: { n: number }) {
      return h('span', null, useAttemptsText()(n));
    }
    const both = (status: string, n: number) =>
      h('div', null, h(DeliveryBadge, { status, attemptCount: n }), ' · ', h(Attempts, { n }));
    renderWith(both('PENDING', 0), client, 'en');
    expect(screen.getByText('Pending')).toBeTruthy();
    expect(screen.getByText('Not attempted yet')).toBeTruthy();
    expect(screen.queryByText('Retrying')).toBeNull();
    cleanup();
    renderWith(both('PENDING', 3), client, 'en');
    expect(screen.getByText('Retrying')).toBeTruthy();
    expect(screen.getByText('3 attempts')).toBeTruthy();
    cleanup();
    renderWith(both('PENDING', 0), client, 'es');
    expect(screen.getByText('Pendiente')).toBeTruthy();
    expect(screen.getByText('Aún sin intentar')).toBeTruthy();
    cleanup();
    renderWith(both('PENDING', 2), client, 'es');
    expect(screen.getByText('Reintentando')).toBeTruthy();
    expect(screen.getByText('2 intentos')).toBeTruthy();
  });

  it("colours partial and whole scores by the account's bands, not a fixed 80/60", () => {
    const bands = { good: 90, fair: 70 };
    const withBands = (node: ReactNode) => h(ScoreBandsContext.Provider, { value: bands }, node);
    for (const lang of ['en', 'es'] as const) {
      renderWith(withBands(h(QaScore, { score: 85, coverage: 0.5 })), client, lang);
      const partial = screen.getByRole('img');
      expect(partial.className).toContain('score-mid');
      expect(partial.textContent).toBe('85');
      expect(
        screen.getByText(lang === 'en' ? '50% evaluated' : '50\u00a0% evaluado', { normalizer: keepSpaces }),
      ).toBeTruthy();
      cleanup();
      renderWith(withBands(h(QaScore, { score: 65, coverage: 1 })), client, lang);
      expect(screen.getByTestId('qa-score').querySelector('.score')!.className).toContain('score-bad');
      cleanup();
    }
    // Without an account's bands (before they load) the defaults still apply.
    renderWith(h(QaScore, { score: 85, coverage: 0.5 }), client, 'en');
    expect(screen.getByRole('img').className).toContain('score-good');
  });
});

describe('webhook endpoint dialog', () => {
  it('offers every event type the API accepts, named in both languages, and subscribes to the ones ticked', async () => {
    const sent: any[] = [];
    const client = {
      executeQuery: vi.fn((op: any) =>
        fromValue({ operation: op, data: { campaigns: [] }, stale: false, hasNext: false }),
      ),
      executeSubscription: vi.fn(() => never),
      executeMutation: vi.fn((op: any) => {
        sent.push(op.variables);
        const data = {
          createWebhookEndpoint: {
            __typename: 'WebhookEndpointWithSecret',
            secret: 'whsec_x',
            endpoint: { __typename: 'WebhookEndpoint', id: 'e1' },
          },
        };
        return fromValue({ operation: op, data, stale: false, hasNext: false });
      }),
    } as unknown as Client;
    const boxes = () =>
      screen.getAllByRole('checkbox', { hidden: true }).map((b) => (b.closest('label') as HTMLElement).textContent);
    for (const lang of ['en', 'es'] as const) {
      renderWith(h(EndpointDialog, { onClose: () => {}, onSaved: () => {} }), client, lang);
      const labels = boxes();
      // The wire names, in the API's order, each after its meaning in the UI language.
      expect(labels.map((l) => l?.split(' ').at(-1))).toEqual([...SUBSCRIBABLE_EVENT_TYPES]);
      for (const l of labels) expect(l?.split(' ').length, l ?? '').toBeGreaterThan(2);
      if (lang === 'es') expect(labels).toContain('Se asignó coaching a un agente coaching.assigned');
      cleanup();
    }
    renderWith(h(EndpointDialog, { onClose: () => {}, onSaved: () => {} }), client, 'en');
    fireEvent.change(screen.getByRole('textbox', { name: /Endpoint URL/, hidden: true }), {
      target: { value: 'https://example.com/hooks' },
    });
    for (const name of ['coaching.assigned', 'coaching.completed', 'call.reviewed'])
      fireEvent.click(screen.getByRole('checkbox', { name: new RegExp(name.replace('.', '\\.')), hidden: true }));
    await act(async () => {
      fireEvent.submit(screen.getByRole('button', { name: 'Add endpoint', hidden: true }).closest('form')!);
    });
    expect(sent[0].input.eventTypes).toEqual([
      'CALL_ANALYZED',
      'COACHING_ASSIGNED',
      'COACHING_COMPLETED',
      'CALL_REVIEWED',
    ]);
  });
});

import { useRef, useState, type DragEvent } from 'react';
import { LinkButton, SetUpFirst } from '../components/link-button.tsx';
import { ItemSelect } from '../components/item-select.tsx';
import { useQuery } from 'urql';
import { Icon } from '../components/Icon.tsx';
import { Alert, Badge, Button, Card, PageHeader, ProgressBar } from '../components/ui.tsx';
import { hasKey, useT } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { formatBytes, useFormat } from '../lib/format.ts';
import { graphql } from '../lib/graphql.ts';
import { looksLikeAudio, uploadFile, type UploadResult } from '../lib/upload.ts';

const UploadOptionsQuery = graphql(`
  query UploadOptions {
    agents { id name telephonyCode }
    campaigns { id name }
    account { id plan { manualUploadMaxBytes } }
  }
`);

interface Item {
  key: string;
  file: File;
  progress: number;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  result?: UploadResult;
  localError?: string;
}

const CONCURRENCY = 2;

/** Waiting, or refused by the server (it may take it after a change of agent): Upload sends it. */
const toSend = (x: Item) => x.state === 'waiting' || (x.state === 'failed' && !x.localError && !!x.result);

export function UploadPage() {
  const i18n = useT();
  const fmt = useFormat();
  const { t, locale } = i18n;
  const [{ data }] = useQuery({ query: UploadOptionsQuery });
  const [agentId, setAgentId] = useState('');
  const [campaignId, setCampaignId] = useState('');
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const [running, setRunning] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const maxBytes = data?.account.plan.manualUploadMaxBytes ?? null;
  const canUpload = roleAtLeast(useRole(), 'ANALYST');

  const add = (files: FileList | File[]) => {
    const next: Item[] = [];
    for (const file of Array.from(files)) {
      let localError: string | undefined;
      if (!looksLikeAudio(file)) localError = t('upload.notAudio');
      else if (maxBytes && file.size > maxBytes)
        localError = t('upload.tooBig', { max: formatBytes(maxBytes, locale) });
      next.push({
        key: `${file.name}-${file.size}-${Math.random()}`,
        file,
        progress: 0,
        state: localError ? 'failed' : 'waiting',
        localError,
      });
    }
    setItems((xs) => [...xs, ...next]);
  };

  const patch = (key: string, p: Partial<Item>) =>
    setItems((xs) => xs.map((x) => (x.key === key ? { ...x, ...p } : x)));

  const start = async () => {
    const queue = items.filter(toSend);
    if (!queue.length) return;
    setRunning(true);
    const worker = async () => {
      for (let it = queue.shift(); it; it = queue.shift()) {
        const key = it.key;
        patch(key, { state: 'uploading', progress: 0 });
        const result = await uploadFile(it.file, {
          agentId: agentId || null,
          campaignId: campaignId || null,
          onProgress: (f) => patch(key, { progress: f }),
        });
        patch(key, { state: result.ok ? 'done' : 'failed', progress: 1, result });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    setRunning(false);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (e.dataTransfer.files.length) add(e.dataTransfer.files);
  };

  const errorText = (it: Item) => {
    if (it.localError) return it.localError;
    const e = it.result?.error;
    if (!e) return '';
    const k = `errors.${e.code}`;
    return hasKey(k) ? t(k) : e.message || t('errors.unknown');
  };

  // A file the server refused (no agent chosen, a full quota…) is sent again by the same button once
  // the user has fixed what was wrong; one the browser refused (not audio, too big) is not.
  const waiting = items.filter(toSend).length;
  const done = items.filter((x) => x.state === 'done').length;
  const agents = data?.agents ?? [];

  return (
    <div className="page-narrow">
      <PageHeader title={t('nav.upload')} description={t('upload.lead')} />
      <div className="stack">
        {!canUpload && <Alert tone="blue">{t('upload.viewerOnly')}</Alert>}
        {data && agents.length === 0 && (
          <SetUpFirst page="team" title={t('upload.noAgentsTitle')}>
            {t('upload.noAgentsBody')}
          </SetUpFirst>
        )}
        <Card>
          <div className="form-grid">
            <ItemSelect
              label={t('upload.agent')}
              value={agentId}
              onValue={setAgentId}
              hint={t('upload.agentHint')}
              none={t('upload.agentFromName')}
              items={agents.map((a) => ({
                id: a.id,
                name: a.telephonyCode ? `${a.name} · ${a.telephonyCode}` : a.name,
              }))}
            />
            <ItemSelect
              label={t('upload.campaign')}
              value={campaignId}
              onValue={setCampaignId}
              hint={t('upload.campaignHint')}
              none={t('upload.noCampaign')}
              items={data?.campaigns ?? []}
            />
          </div>
        </Card>
        {canUpload && (
          // biome-ignore lint/a11y/useSemanticElements: a drop target that holds its own text and hint; a <button> may not contain them.
          <div
            className={`dropzone${over ? ' over' : ''}`}
            role="button"
            tabIndex={0}
            aria-describedby="drop-hint"
            onClick={() => input.current?.click()}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                input.current?.click();
              }
            }}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(true);
            }}
            onDragLeave={() => setOver(false)}
            onDrop={onDrop}
            data-testid="dropzone"
          >
            <div
              className="empty-icon"
              style={{
                width: 48,
                height: 48,
                borderRadius: 12,
                background: 'var(--accent-soft)',
                color: 'var(--accent)',
                display: 'grid',
                placeItems: 'center',
              }}
            >
              <Icon name="upload" size={22} />
            </div>
            <strong>{t('upload.drop')}</strong>
            <span id="drop-hint" className="muted small">
              {t('upload.dropHint', { max: maxBytes ? formatBytes(maxBytes, locale) : '—' })}
            </span>
            <input
              ref={input}
              type="file"
              multiple
              accept="audio/*,.mp3,.wav,.ogg,.m4a,.aac,.flac,.opus,.webm,.wma,.amr"
              hidden
              onChange={(e) => {
                if (e.target.files) add(e.target.files);
                e.target.value = '';
              }}
              data-testid="file-input"
            />
          </div>
        )}
        {items.length > 0 && (
          <Card
            title={t('upload.files', { n: items.length })}
            description={done ? t('upload.doneCount', { n: done }) : undefined}
            actions={
              <>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => setItems((xs) => xs.filter((x) => x.state === 'uploading'))}
                  disabled={running}
                >
                  {t('upload.clear')}
                </Button>
                <Button
                  size="sm"
                  variant="primary"
                  icon="upload"
                  onClick={start}
                  disabled={!waiting || running}
                  loading={running}
                >
                  {waiting ? t('upload.start', { n: waiting }) : t('nav.upload')}
                </Button>
              </>
            }
            bodyClass="tight"
          >
            <ul className="upload-list" aria-live="polite">
              {items.map((it) => (
                <li key={it.key} className="upload-item" data-testid="upload-item" data-state={it.state}>
                  <Icon name="file" size={20} style={{ color: 'var(--text-3)' }} />
                  <div className="stack-sm" style={{ gap: 6, minWidth: 0 }}>
                    <div className="row" style={{ minWidth: 0 }}>
                      <span className="truncate strong">{it.file.name}</span>
                      <span className="muted small nowrap">{formatBytes(it.file.size, locale)}</span>
                    </div>
                    {(it.state === 'uploading' || it.state === 'done') && (
                      <ProgressBar
                        value={it.progress}
                        tone={it.state === 'done' ? 'green' : undefined}
                        label={t('upload.progress', { name: it.file.name })}
                      />
                    )}
                    {it.state === 'failed' && (
                      <span className="small" style={{ color: 'var(--red)' }}>
                        {errorText(it)}
                      </span>
                    )}
                  </div>
                  <div>
                    {it.state === 'waiting' && <Badge>{t('upload.waiting')}</Badge>}
                    {it.state === 'uploading' && <Badge tone="blue">{fmt.percent(it.progress)}</Badge>}
                    {it.state === 'failed' && <Badge tone="red">{t('upload.failed')}</Badge>}
                    {it.state === 'done' && it.result?.id && (
                      <LinkButton to={`/calls/${it.result.id}`} size="sm">
                        {it.result.status === 'exists' ? t('upload.alreadyThere') : t('upload.open')}{' '}
                        <Icon name="chevronRight" size={14} />
                      </LinkButton>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          </Card>
        )}
      </div>
    </div>
  );
}

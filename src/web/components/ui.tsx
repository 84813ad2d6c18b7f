/** The small component kit every page uses: buttons, fields, cards, badges, dialogs, toasts. */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { useT } from '../i18n/index.tsx';
import { Icon, type IconName } from './Icon.tsx';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'danger-solid';

export function Button({
  variant = 'secondary',
  size,
  icon,
  loading,
  children,
  className,
  iconOnly,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  /** React 19 passes it on to the <button> (the inline forms give the focus back to their opener). */
  ref?: Ref<HTMLButtonElement>;
  variant?: Variant;
  size?: 'sm';
  icon?: IconName;
  loading?: boolean;
  iconOnly?: boolean;
}) {
  const cls = [
    'btn',
    variant !== 'secondary' && `btn-${variant}`,
    size === 'sm' && 'btn-sm',
    iconOnly && 'btn-icon',
    className,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <button
      type="button"
      className={cls}
      disabled={rest.disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? (
        <span className="spinner" aria-hidden="true" />
      ) : icon ? (
        <Icon name={icon} size={size === 'sm' ? 14 : 16} />
      ) : null}
      {children}
    </button>
  );
}

export function Spinner({ label }: { label?: string }) {
  return label ? (
    <span className="spinner" role="status" aria-label={label} />
  ) : (
    <span className="spinner" aria-hidden="true" />
  );
}

interface FieldShell {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  className?: string;
}

/**
 * A field's frame: the label, the control, then its hint — or its error once there is one. The
 * control is drawn by `children` with the ids the frame names (`hintId`, and `errId` where the
 * control points at its error too).
 */
function FieldFrame({
  label,
  hint,
  error,
  className,
  htmlFor,
  hintId,
  errId,
  children,
}: FieldShell & { htmlFor: string; hintId: string | undefined; errId?: string; children: ReactNode }) {
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {hint && !error && (
        <span id={hintId} className="hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={errId} className="error-text">
          {error}
        </span>
      )}
    </div>
  );
}

/** A field's props split into the frame's and the control's, with the control's id and its hint's id. */
function useField<P extends FieldShell>({ label, hint, error, className, ...control }: P) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  // What every control says of itself: its id, whether it is wrong, and its hint.
  const attrs = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': hintId };
  return { frame: { label, hint, error, className, hintId }, control, id, hintId, attrs };
}

export function TextField(props: FieldShell & InputHTMLAttributes<HTMLInputElement>) {
  const { frame, control, id, hintId, attrs } = useField(props);
  const errId = props.error ? `${id}-err` : undefined;
  return (
    <FieldFrame {...frame} errId={errId} htmlFor={control.id ?? id}>
      <input
        className="input"
        {...attrs}
        aria-describedby={[hintId, errId].filter(Boolean).join(' ') || undefined}
        {...control}
      />
    </FieldFrame>
  );
}

/** A whole number from `min` to `max`. */
export function NumberField(props: FieldShell & InputHTMLAttributes<HTMLInputElement> & { min: number; max: number }) {
  return <TextField type="number" step={1} {...props} />;
}

/** A password the user must type: the one they have, or (`isNew`) one they choose, which browsers may suggest. */
export function PasswordField({
  isNew = false,
  onValue,
  ...props
}: FieldShell &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & { isNew?: boolean; onValue: (value: string) => void }) {
  return (
    <TextField
      type="password"
      autoComplete={isNew ? 'new-password' : 'current-password'}
      required
      onChange={(e) => onValue(e.target.value)}
      {...props}
    />
  );
}

/** A <textarea> or a <select> in its frame, with the frame's ids; its class is its tag's name. */
function PlainField<P extends FieldShell>({ tag: Control, ...props }: P & { tag: 'textarea' | 'select' }) {
  const { frame, control, attrs } = useField(props);
  return (
    <FieldFrame {...frame} htmlFor={attrs.id}>
      <Control className={Control} {...attrs} {...control} />
    </FieldFrame>
  );
}

export function TextArea(props: FieldShell & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <PlainField tag="textarea" {...props} />;
}

export function SelectField(props: FieldShell & SelectHTMLAttributes<HTMLSelectElement>) {
  return <PlainField tag="select" {...props} />;
}

export function Checkbox({ label, ...input }: { label: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="checkbox">
      <input type="checkbox" {...input} />
      <span>{label}</span>
    </label>
  );
}

export type Tone = 'green' | 'amber' | 'red' | 'blue' | 'accent' | 'gray';

export function Badge({
  tone = 'gray',
  dot,
  pulse,
  children,
  title,
  wrap,
}: {
  tone?: Tone;
  dot?: boolean;
  pulse?: boolean;
  children: ReactNode;
  title?: string;
  /** May break onto two lines (long labels in narrow cards, e.g. "Criterio crítico no superado"). */
  wrap?: boolean;
}) {
  return (
    <span className={['badge', `badge-${tone}`, wrap && 'badge-wrap'].filter(Boolean).join(' ')} title={title}>
      {dot && <span className={['dot', pulse && 'pulse'].filter(Boolean).join(' ')} aria-hidden="true" />}
      {children}
    </span>
  );
}

export function Card({
  title,
  description,
  actions,
  children,
  footer,
  bodyClass,
  id,
  className,
}: {
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  bodyClass?: string;
  id?: string;
  className?: string;
}) {
  const headingId = useId();
  return (
    <section
      className={['card', className].filter(Boolean).join(' ')}
      aria-labelledby={title ? headingId : undefined}
      id={id}
    >
      {(title || actions) && (
        <header className="card-header">
          <div>
            {title && <h2 id={headingId}>{title}</h2>}
            {description && <p>{description}</p>}
          </div>
          {actions && <div className="row-wrap">{actions}</div>}
        </header>
      )}
      {children !== undefined && <div className={['card-body', bodyClass].filter(Boolean).join(' ')}>{children}</div>}
      {footer && <footer className="card-footer">{footer}</footer>}
    </section>
  );
}

/** A table in its horizontal scroller: `head` is the header row's cells, `children` the body rows. */
export function DataTable({
  head,
  children,
  testId,
  scroll = true,
}: {
  head: ReactNode;
  children: ReactNode;
  testId?: string;
  scroll?: boolean;
}) {
  const table = (
    <table className="table data-table" data-testid={testId}>
      <thead>
        <tr>{head}</tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  return scroll ? <div className="table-wrap">{table}</div> : table;
}

export function EmptyState({
  icon = 'info',
  title,
  children,
  action,
  page = false,
}: {
  icon?: IconName;
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  /** The whole page is this state (no access, a deleted call): its title is the page's h1. */
  page?: boolean;
}) {
  const Heading = page ? 'h1' : 'h3';
  return (
    <div className="empty">
      <div className="empty-icon" aria-hidden="true">
        <Icon name={icon} size={22} />
      </div>
      <Heading>{title}</Heading>
      {children && <p>{children}</p>}
      {action}
    </div>
  );
}

export function Alert({
  tone = 'blue',
  title,
  children,
  icon,
  action,
}: {
  tone?: 'red' | 'amber' | 'green' | 'blue';
  title?: ReactNode;
  children?: ReactNode;
  icon?: IconName;
  action?: ReactNode;
}) {
  const i: IconName =
    icon ?? (tone === 'red' ? 'alert' : tone === 'amber' ? 'alert' : tone === 'green' ? 'check' : 'info');
  return (
    <div className={`alert alert-${tone}`} role={tone === 'red' ? 'alert' : 'status'}>
      <Icon name={i} />
      <div style={{ flex: 1 }}>
        {title && <div className="alert-title">{title}</div>}
        {children && <div>{children}</div>}
      </div>
      {action}
    </div>
  );
}

export function PageHeader({
  title,
  description,
  actions,
  back,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  back?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div>
        {back}
        <h1>{title}</h1>
        {description && <p>{description}</p>}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </header>
  );
}

export function Skeleton({ width = '100%', height = 14 }: { width?: number | string; height?: number }) {
  return <div className="skeleton" style={{ width, height }} aria-hidden="true" />;
}

export function LoadingBlock() {
  const { t } = useT();
  return (
    <div className="loading-page" role="status">
      <span className="row">
        <Spinner /> {t('common.loading')}
      </span>
    </div>
  );
}

/** The element a dialog starts on: its first enabled field, else its first footer action, else nothing. */
export function firstFocusTarget(root: HTMLElement): HTMLElement | null {
  const field = root.querySelector<HTMLElement>(
    '.dialog-body :is(input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])), .dialog-body [autofocus]',
  );
  return field ?? root.querySelector<HTMLElement>('.dialog-foot button:not([disabled]), .dialog-foot a[href]');
}

/** Back to whoever opened the dialog, when it is still on the page (a deleted row's button is not). */
function restoreFocus(opener: { current: HTMLElement | null }) {
  const el = opener.current;
  opener.current = null;
  if (el?.isConnected) el.focus();
}

/** A modal on the native <dialog> element: focus moves in and is trapped, Escape closes, focus returns. */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  wide,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const { t } = useT();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      d.showModal?.();
      // showModal focuses the first focusable element, the ✕: typing a name and pressing Enter then
      // closed the dialog. The first field (else the first footer action) is where work starts.
      firstFocusTarget(d)?.focus();
    }
    if (!open && d.open) d.close();
    if (!open) restoreFocus(opener);
  }, [open]);
  // Pages that unmount a dialog to close it (`{open && <Dialog …/>}`) get focus back too.
  useEffect(() => () => restoreFocus(opener), []);
  return (
    <dialog
      ref={ref}
      className={['dialog', wide && 'wide'].filter(Boolean).join(' ')}
      aria-labelledby={titleId}
      // The close event comes a task after the dialog closed; on a busy machine the dialog may be open
      // again by then (a second action right after the first), and that stale event must not close it.
      onClose={(e) => {
        if (!e.currentTarget.open) onClose();
      }}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <div className="dialog-head">
            <div>
              <h2 id={titleId}>{title}</h2>
              {description && <p>{description}</p>}
            </div>
            <Button variant="ghost" size="sm" iconOnly icon="x" aria-label={t('common.close')} onClick={onClose} />
          </div>
          <div className="dialog-body">{children}</div>
          {footer && <div className="dialog-foot">{footer}</div>}
        </>
      )}
    </dialog>
  );
}

export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  children,
  confirmLabel,
  danger,
  loading,
}: {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: ReactNode;
  children?: ReactNode;
  confirmLabel: ReactNode;
  danger?: boolean;
  loading?: boolean;
}) {
  const { t } = useT();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button variant={danger ? 'danger-solid' : 'primary'} onClick={onConfirm} loading={loading}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}

export function CopyButton({ value, label }: { value: string; label?: string }) {
  const { t } = useT();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Clipboard API refused (insecure context): fall back to a hidden textarea.
      const ta = document.createElement('textarea');
      ta.value = value;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand('copy');
      ta.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1800);
  };
  return (
    <Button size="sm" icon={copied ? 'check' : 'copy'} onClick={copy} aria-live="polite">
      {copied ? t('common.copied') : (label ?? t('common.copy'))}
    </Button>
  );
}

export function SecretBox({ value }: { value: string }) {
  return (
    <div className="secret">
      <code data-testid="secret-value">{value}</code>
      <CopyButton value={value} />
    </div>
  );
}

// ---------- Toasts ----------
interface ToastItem {
  id: number;
  tone: 'success' | 'error' | 'info';
  text: ReactNode;
}
const ToastContext = createContext<(text: ReactNode, tone?: ToastItem['tone']) => void>(() => {});

export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const push = useCallback((text: ReactNode, tone: ToastItem['tone'] = 'success') => {
    const id = Date.now() + Math.random();
    setItems((xs) => [...xs.slice(-3), { id, tone, text }]);
    setTimeout(() => setItems((xs) => xs.filter((x) => x.id !== id)), tone === 'error' ? 7000 : 3500);
  }, []);
  return (
    <ToastContext.Provider value={push}>
      {children}
      <div className="toasts" aria-live="polite" role="status">
        {items.map((x) => (
          <div key={x.id} className={`toast ${x.tone}`}>
            <Icon name={x.tone === 'error' ? 'alert' : x.tone === 'success' ? 'check' : 'info'} />
            <div>{x.text}</div>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);

export function ProgressBar({ value, tone, label }: { value: number; tone?: 'green' | 'red'; label?: string }) {
  const pct = Math.max(0, Math.min(100, value * 100));
  return (
    <div
      className={['progress', tone].filter(Boolean).join(' ')}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(pct)}
      aria-label={label}
    >
      <span style={{ width: `${pct}%` }} />
    </div>
  );
}

/**
 * Arrow keys, Home and End move between the tabs of a `role="tablist"` (roving tab index: only the
 * selected tab is in the Tab order, the caller sets `tabIndex={selected ? 0 : -1}`); Space activates
 * a tab that is a link as Enter does.
 */
export function onTabListKeyDown(e: KeyboardEvent<HTMLElement>) {
  const tabs = Array.from(e.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]'));
  const i = tabs.indexOf(document.activeElement as HTMLElement);
  if (i < 0) return;
  let next = -1;
  if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = (i + 1) % tabs.length;
  else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = (i - 1 + tabs.length) % tabs.length;
  else if (e.key === 'Home') next = 0;
  else if (e.key === 'End') next = tabs.length - 1;
  else if (e.key === ' ') {
    e.preventDefault();
    tabs[i]!.click();
    return;
  }
  if (next < 0) return;
  e.preventDefault();
  for (const [k, tab] of tabs.entries()) tab.tabIndex = k === next ? 0 : -1;
  tabs[next]!.focus();
}

/**
 * After a client-side navigation (a new pathname), focus goes to the page's <h1> so a screen reader
 * announces the new page and the next Tab starts in its content, not at the top of the sidebar. The
 * heading may arrive after the data does, so it is awaited for a few seconds.
 */
export function useFocusHeadingOnNavigate(pathname: string, root: { current: HTMLElement | null }) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again on every new pathname, which is the point.
  useEffect(() => {
    let cancelled = false;
    const started = performance.now();
    const tryFocus = () => {
      if (cancelled) return;
      const active = document.activeElement;
      // Someone already works inside the page (typing in a field): leave them there.
      if (active && active !== document.body && root.current?.contains(active) && active.tagName !== 'MAIN') return;
      const h1 = root.current?.querySelector<HTMLElement>('h1');
      if (h1 && !root.current?.querySelector('.loading-page')) {
        if (!h1.hasAttribute('tabindex')) h1.tabIndex = -1;
        h1.focus({ preventScroll: true });
        return;
      }
      if (performance.now() - started < 5000) setTimeout(tryFocus, 50);
    };
    tryFocus();
    return () => {
      cancelled = true;
    };
  }, [pathname, root]);
}

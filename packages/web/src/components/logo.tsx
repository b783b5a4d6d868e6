/** Hangar's mark and name; decorative next to a visible name, so the SVG is hidden from AT. */
export function Logo({ withName = true }: { withName?: boolean }) {
  return (
    <span className="logo">
      <svg className="logo-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" />
        <path d="M7 22V14l9-5 9 5v8h-4v-6.5h-10V22z" />
      </svg>
      {withName && <span className="logo-name">Hangar</span>}
    </span>
  );
}

import { useRef } from 'react';

/**
 * "Attach": the system's own picker (on a phone it offers the camera, the photo library and
 * files). Images, PDFs and text; the bridge checks the bytes whatever the picker allowed.
 */
export function AttachButton({ onFiles, disabled }: { readonly onFiles: (files: File[]) => void; readonly disabled: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="composer-keys composer-attach" aria-label="Attach files" onClick={() => input.current?.click()} disabled={disabled}>
        +
      </button>
      <input
        ref={input}
        type="file"
        className="attach-input"
        multiple
        accept="image/*,application/pdf,text/*,.md,.json,.log,.ts,.tsx,.js,.py,.csv"
        aria-hidden="true"
        tabIndex={-1}
        onChange={(event) => {
          const files = [...(event.currentTarget.files ?? [])];
          event.currentTarget.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}

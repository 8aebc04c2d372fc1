import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';
import { useAdjustOnChange } from '../../lib/render-state';
import { ADVERT_MEDIA_MESSAGES as M } from '@shared/messages/advert-media';
import { clampCrop, clampSide, cropFromDrag, editedFileOf, heightForWidth, type CropBox } from '@shared/rules/image-editor';
import { Dialog } from '../../ui/Dialog';

const VIEW_WIDTH = 480;
const VIEW_HEIGHT = 300;

interface Loaded {
  image: HTMLImageElement;
  url: string;
  name: string;
}

/** Draws the view: the whole image at `scale`, darkened outside the crop box. */
function useCropView(canvasRef: RefObject<HTMLCanvasElement | null>, loaded: Loaded | null, crop: CropBox | null, scale: number) {
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !loaded || !crop) return;
    const context = canvas.getContext('2d');
    if (!context) return;
    const { image } = loaded;
    canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
    canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    context.fillStyle = 'rgba(0, 0, 0, 0.45)';
    context.beginPath();
    context.rect(0, 0, canvas.width, canvas.height);
    context.rect(crop.x * scale, crop.y * scale, crop.width * scale, crop.height * scale);
    context.fill('evenodd');
    context.strokeStyle = '#ffffff';
    context.lineWidth = 1;
    context.strokeRect(crop.x * scale + 0.5, crop.y * scale + 0.5, crop.width * scale - 1, crop.height * scale - 1);
  }, [canvasRef, loaded, crop, scale]);
}

type OutputSize = { width: number; height: number };

/** Draws the crop into a canvas of the output size and hands it back as a PNG or JPEG blob. */
function exportCrop(loaded: Loaded, crop: CropBox, output: OutputSize, onDone: (blob: Blob, fileName: string) => void, onFail: () => void) {
  const canvas = document.createElement('canvas');
  canvas.width = clampSide(output.width);
  canvas.height = clampSide(output.height);
  const context = canvas.getContext('2d');
  if (!context) return;
  context.imageSmoothingQuality = 'high';
  context.drawImage(loaded.image, crop.x, crop.y, crop.width, crop.height, 0, 0, canvas.width, canvas.height);
  const { type, fileName } = editedFileOf(loaded.name);
  canvas.toBlob(
    (blob) => {
      if (!blob) return onFail();
      onDone(blob, fileName);
    },
    type,
    0.92,
  );
}

/** The output size; a new width keeps the crop's proportions, a new height does not. */
function OutputSizeFields(props: { crop: CropBox; output: OutputSize; onChange: (output: OutputSize) => void }) {
  return (
    <>
      <label className="field">
        <span className="field-label">{M.imageEditorWidth}</span>
        <input
          type="number"
          min={1}
          value={props.output.width}
          onChange={(event) =>
            props.onChange({
              width: clampSide(Number(event.target.value)),
              height: heightForWidth(props.crop, clampSide(Number(event.target.value))),
            })
          }
          data-testid="image-editor-width"
        />
      </label>
      <label className="field">
        <span className="field-label">{M.imageEditorHeight}</span>
        <input
          type="number"
          min={1}
          value={props.output.height}
          onChange={(event) => props.onChange({ ...props.output, height: clampSide(Number(event.target.value)) })}
          data-testid="image-editor-height"
        />
      </label>
    </>
  );
}

/**
 * The image-editor modal (adverts-articles.md §2.2): the user picks an image, drags (or types) a crop box on a
 * canvas and sets the output size; the crop is drawn into a canvas of that size and handed back as a PNG or
 * JPEG blob, which the caller uploads.
 */
export function ImageEditorModal(props: { open: boolean; onClose(): void; onDone(blob: Blob, fileName: string): void }) {
  const { open, onClose, onDone } = props;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [crop, setCrop] = useState<CropBox | null>(null);
  const [output, setOutput] = useState<OutputSize>({ width: 1, height: 1 });
  const [error, setError] = useState<string | null>(null);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const dragFrom = useRef<{ x: number; y: number } | null>(null);

  // Closing forgets the picture: the next opening starts empty.
  useAdjustOnChange(open, () => {
    if (open) return;
    setLoaded(null);
    setCrop(null);
    setError(null);
  });
  useEffect(() => () => void (loaded && URL.revokeObjectURL(loaded.url)), [loaded]);

  const scale = loaded ? Math.min(VIEW_WIDTH / loaded.image.naturalWidth, VIEW_HEIGHT / loaded.image.naturalHeight, 1) : 1;

  useCropView(canvasRef, loaded, crop, scale);

  if (!open) return null;

  function pick(file: File | undefined) {
    if (!file) return;
    setError(null);
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      const whole = { x: 0, y: 0, width: image.naturalWidth, height: image.naturalHeight };
      setLoaded({ image, url, name: file.name });
      setCrop(whole);
      setOutput({ width: whole.width, height: whole.height });
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      setError(M.imageEditorNoImage);
    };
    image.src = url;
  }

  function changeCrop(next: CropBox) {
    if (!loaded) return;
    const box = clampCrop(next, loaded.image.naturalWidth, loaded.image.naturalHeight);
    setCrop(box);
    setOutput({ width: box.width, height: box.height });
  }

  const pointOf = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: (event.clientX - rect.left) / scale, y: (event.clientY - rect.top) / scale };
  };

  function finish() {
    if (loaded && crop) exportCrop(loaded, crop, output, onDone, () => setError(M.imageEditorNoImage));
  }

  const cropField = (key: keyof CropBox, label: string) => (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        type="number"
        min={0}
        value={crop?.[key] ?? 0}
        disabled={!crop}
        onChange={(event) => crop && changeCrop({ ...crop, [key]: Number(event.target.value) })}
        data-testid={`image-editor-crop-${key}`}
      />
    </label>
  );

  return (
    <div className="modal-backdrop image-editor-backdrop" data-testid="image-editor">
      <Dialog
        title={M.imageEditorTitle}
        onCancel={onClose}
        testId="image-editor-dialog"
        actions={
          <>
            <button type="button" className="secondary" onClick={onClose} data-testid="image-editor-cancel">
              Annuler
            </button>
            <button type="button" className="primary" disabled={!crop} onClick={finish} data-testid="image-editor-upload">
              {M.imageEditorUpload}
            </button>
          </>
        }
      >
        <label className="field">
          <span className="field-label">{M.imageEditorChoose}</span>
          <input
            type="file"
            accept=".png,.jpg,.jpeg,.gif,image/png,image/jpeg,image/gif"
            onChange={(event) => pick(event.target.files?.[0])}
            data-testid="image-editor-file"
          />
        </label>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        {loaded && crop && (
          <>
            <canvas
              ref={canvasRef}
              className="image-editor-canvas"
              onPointerDown={(event) => {
                dragFrom.current = pointOf(event);
                event.currentTarget.setPointerCapture(event.pointerId);
              }}
              onPointerMove={(event) => {
                if (dragFrom.current && event.buttons)
                  changeCrop(cropFromDrag(dragFrom.current, pointOf(event), loaded.image.naturalWidth, loaded.image.naturalHeight));
              }}
              onPointerUp={() => {
                dragFrom.current = null;
              }}
              data-testid="image-editor-canvas"
            />
            <div className="image-editor-fields">
              {cropField('x', 'X')}
              {cropField('y', 'Y')}
              {cropField('width', 'Largeur du recadrage')}
              {cropField('height', 'Hauteur du recadrage')}
              <OutputSizeFields crop={crop} output={output} onChange={setOutput} />
            </div>
          </>
        )}
      </Dialog>
    </div>
  );
}

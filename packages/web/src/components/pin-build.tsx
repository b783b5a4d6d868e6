import { useState } from "react";
import { describeError } from "../api/api-client";
import type { FileDetail } from "../api/dashboard.api";
import { usePinFile } from "../api/retention.queries";
import { ErrorSummary } from "./alerts";
import { Button } from "./button";
import { Card } from "./layouts";

/**
 * Pin or unpin a completed build (issue 24, docs/release-safety.md "Retention"): a pinned build is
 * kept whatever the project's retention policy says: the release in the stores, the build QA signed
 * off. Those who may delete builds (`builds.manage`) may pin them; others read the state.
 */
export function PinBuild({ file, canManage }: { file: FileDetail; canManage: boolean }) {
  const pin = usePinFile(file);
  const [error, setError] = useState<string>();
  if (file.status !== "completed") return null;
  const toggle = async () => {
    setError(undefined);
    try {
      await pin.mutateAsync(!file.pinned);
    } catch (e) {
      setError(describeError(e));
    }
  };
  return (
    <Card
      title="Retention"
      id="pin"
      description={file.pinned ? "Pinned: the project's retention policy never removes this build." : "Not pinned: the project's retention policy may remove this build once newer ones arrive or it grows old."}
    >
      {error && <ErrorSummary message={error} />}
      <p data-testid="pin-state">
        {file.pinned ? <span className="badge badge-accent">Pinned</span> : <span className="badge badge-muted">Not pinned</span>}
      </p>
      {canManage && (
        <div className="form-actions">
          <Button variant="secondary" busy={pin.isPending} busyLabel={pin.variables ? "Pinning…" : "Unpinning…"} onClick={() => void toggle()}>
            {file.pinned ? "Unpin build" : "Pin build"}
          </Button>
        </div>
      )}
    </Card>
  );
}

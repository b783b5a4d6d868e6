import { ProfileForm } from "../components/profile-form";
import { AuthLayout } from "../components/layouts";
import { safeNextPath, useNavigate, useSearchParam } from "../app/router";
import { useAccount, useSession } from "../app/session";

/** First stop after the first login: the dashboard needs a display name. */
export function ProfilePage() {
  const account = useAccount();
  const { signOut } = useSession();
  const navigate = useNavigate();
  const next = useSearchParam("next");
  return (
    <AuthLayout
      title="Complete your profile"
      footer={
        <p>
          Not you?{" "}
          <button type="button" className="link-button" onClick={() => void signOut()}>
            Sign out
          </button>
        </p>
      }
      subtitle={
        <>
          Signed in as <strong className="break-anywhere">{account.email}</strong>. Tell your team who you are.
        </>
      }
    >
      <ProfileForm
        account={account}
        submitLabel="Continue to dashboard"
        onSaved={() => navigate(safeNextPath(next, "/dashboard"), { replace: true })}
      />
    </AuthLayout>
  );
}

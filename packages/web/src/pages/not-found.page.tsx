import { AuthLayout } from "../components/layouts";
import { Link } from "../app/router";

export function NotFoundPage() {
  return (
    <AuthLayout title="Page not found">
      <p className="lead">There is nothing at this address. It may have moved, or the link may be mistyped.</p>
      <Link to="/" className="button button-primary button-block">
        Go to Hangar
      </Link>
    </AuthLayout>
  );
}

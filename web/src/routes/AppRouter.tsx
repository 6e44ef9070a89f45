import { Route, Routes } from "react-router";
import { loadAppTexts } from "../i18n";
import { lazyLoaded } from "../lib/lazy-loaded";
import { loader } from "../lib/loader";
import { PublicOnly, RequireAuth } from "./guards";
import { loadLoginPage, loadShell, loadSignupPage } from "./pages";

const LoginPage = lazyLoaded(loadLoginPage);
const SignupPage = lazyLoaded(loadSignupPage);
// The shell's chunk arrives with the signed-in areas' texts, so no page inside it waits for them.
const loadSignedIn = loader(() => Promise.all([loadShell(), loadAppTexts()]).then(([module]) => module));
const SignedInRoutes = lazyLoaded(loadSignedIn);

/** A reload with a stored session: the shell (and its texts) is rendered at once if it has arrived. */
export function preloadSignedInRoutes(): void {
  void loadSignedIn().catch(() => undefined);
}

export function AppRouter() {
  return (
    <Routes>
      <Route element={<PublicOnly />}>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/signup" element={<SignupPage />} />
      </Route>
      {/* any other path: /login without a session; the shell's routes (unknown ones: not found) with one */}
      <Route element={<RequireAuth />}>
        <Route path="*" element={<SignedInRoutes />} />
      </Route>
    </Routes>
  );
}

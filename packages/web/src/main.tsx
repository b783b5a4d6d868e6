// Base styles first: each area's stylesheet, imported by its page or component, comes after them.
import "./styles/base.css";
import "./styles/palette.css";
import "./styles/widgets.css";
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { createQueryClient } from "./app/query-client";
import { RouterProvider } from "./app/router";
import { SessionProvider } from "./app/session";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider>
        <SessionProvider>
          <App />
        </SessionProvider>
      </RouterProvider>
    </QueryClientProvider>
  </StrictMode>,
);

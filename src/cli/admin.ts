import { PLANS } from "../config.ts";
import { createKey, listKeys, revokeKey } from "../keys/index.ts";
import {
  addCredits,
  createWorkspace,
  getWorkspace,
  listWorkspaces,
  type WorkspaceView,
} from "../workspaces/index.ts";
import { type Command, optionalInteger, requireString, UsageError } from "./command.ts";

const JSON_OPTION = { type: "boolean" as const, description: "Print JSON instead of text." };

const workspaceLine = (ws: WorkspaceView) =>
  `${ws.id}  ${ws.name}  plan=${ws.plan}  balance=${ws.credits.balance}  monthly_allowance=${ws.credits.monthly_allowance}`;

const workspaceJson = (ws: WorkspaceView) => ({
  id: ws.id,
  name: ws.name,
  plan: ws.plan,
  credits: ws.credits,
});

export const adminCommands: Command[] = [
  {
    name: "workspace create",
    summary: "Create a workspace. Its starting balance is --credits, or the plan's monthly allowance.",
    usesStore: true,
    options: {
      name: { type: "string", description: "Workspace name (required).", valueName: "NAME" },
      plan: { type: "string", description: `Plan: ${PLANS.join("|")} (default free).`, valueName: "PLAN" },
      credits: {
        type: "string",
        description: "Starting balance, exactly (default: the plan's allowance).",
        valueName: "N",
      },
      json: JSON_OPTION,
    },
    run({ values, context, out }) {
      const credits = optionalInteger(values, "credits");
      const ws = createWorkspace(context(), {
        name: requireString(values, "name"),
        ...(typeof values.plan === "string" && { plan: values.plan }),
        ...(credits !== undefined && { credits }),
      });
      out(values.json ? JSON.stringify(workspaceJson(ws)) : `created workspace ${workspaceLine(ws)}`);
    },
  },
  {
    name: "workspace list",
    summary: "List workspaces with their plan and balance.",
    usesStore: true,
    options: { json: JSON_OPTION },
    run({ values, store, out }) {
      const all = listWorkspaces(store().db);
      if (values.json) out(JSON.stringify(all.map(workspaceJson)));
      else if (all.length === 0) out("no workspaces yet: textscan workspace create --name NAME");
      else for (const ws of all) out(workspaceLine(ws));
    },
  },
  {
    name: "workspace show",
    summary: "Show one workspace.",
    args: "ID",
    usesStore: true,
    options: { json: JSON_OPTION },
    run({ values, positionals, store, out }) {
      const id = positionals[0];
      if (!id) throw new UsageError("a workspace ID is required");
      const ws = getWorkspace(store().db, id);
      out(values.json ? JSON.stringify(workspaceJson(ws)) : workspaceLine(ws));
    },
  },
  {
    name: "key create",
    summary: "Create an API key for a workspace. The key is shown once; only its hash is stored.",
    usesStore: true,
    options: {
      workspace: { type: "string", description: "Workspace id (required).", valueName: "ID" },
      name: { type: "string", description: "A label for the key.", valueName: "NAME" },
      "rate-limit": { type: "string", description: "Requests per minute (default 60).", valueName: "N" },
      json: JSON_OPTION,
    },
    run({ values, context, out }) {
      const rateLimit = optionalInteger(values, "rate-limit");
      const { key, view } = createKey(context(), {
        workspaceId: requireString(values, "workspace"),
        ...(typeof values.name === "string" && { name: values.name }),
        ...(rateLimit !== undefined && { rateLimit }),
      });
      if (values.json) out(JSON.stringify({ id: view.id, key }));
      else {
        out(`created key ${view.id} (${view.name}, ${view.rate_limit} requests/minute)`);
        out(key);
        out("Store it now: it is shown only this once.");
      }
    },
  },
  {
    name: "key list",
    summary: "List a workspace's API keys (prefixes only).",
    usesStore: true,
    options: {
      workspace: { type: "string", description: "Workspace id (required).", valueName: "ID" },
      json: JSON_OPTION,
    },
    run({ values, store, out }) {
      const keys = listKeys(store().db, requireString(values, "workspace"));
      if (values.json) out(JSON.stringify(keys));
      else
        for (const k of keys) {
          out(
            `${k.id}  ${k.prefix}…  ${k.name}  ${k.rate_limit}/min  ${k.revoked_at ? `revoked ${k.revoked_at}` : "active"}`,
          );
        }
    },
  },
  {
    name: "key revoke",
    summary: "Revoke an API key; a running server refuses it from the next request.",
    args: "KEY_ID",
    usesStore: true,
    options: { json: JSON_OPTION },
    run({ values, positionals, context, out }) {
      const id = positionals[0];
      if (!id) throw new UsageError("a KEY_ID is required (see textscan key list)");
      const view = revokeKey(context(), id);
      out(values.json ? JSON.stringify(view) : `revoked ${view.id}`);
    },
  },
  {
    name: "credits add",
    summary: "Add credits to a workspace (written as a ledger row).",
    usesStore: true,
    options: {
      workspace: { type: "string", description: "Workspace id (required).", valueName: "ID" },
      amount: { type: "string", description: "Credits to add, > 0 (required).", valueName: "N" },
      json: JSON_OPTION,
    },
    run({ values, context, out }) {
      const amount = optionalInteger(values, "amount");
      if (amount === undefined) throw new UsageError("--amount is required");
      const ws = addCredits(context(), requireString(values, "workspace"), amount);
      out(values.json ? JSON.stringify(workspaceJson(ws)) : `added ${amount} credits: ${workspaceLine(ws)}`);
    },
  },
];

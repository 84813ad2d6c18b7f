-- Issue 31.3: coaching items. A manager or analyst turns one or more criteria of a call into
-- something for the call's agent to improve, pinned to moments of the recording; the agent
-- acknowledges it and the manager marks it done with a note. The agent is copied from the call
-- when the item is made (the item stays the agent's even if the call is later reassigned).
CREATE TABLE coaching_items (
  id                 uuid PRIMARY KEY,
  account_id         uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE ON UPDATE CASCADE,
  call_id            uuid NOT NULL REFERENCES calls(id) ON DELETE CASCADE ON UPDATE CASCADE,
  agent_id           uuid NOT NULL REFERENCES agents(id) ON DELETE RESTRICT ON UPDATE CASCADE,
  criterion_keys     text[] NOT NULL,
  improve            text NOT NULL,
  moments            double precision[] NOT NULL DEFAULT '{}',
  due_on             date,
  status             text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'acknowledged', 'done')),
  assigned_by_id     uuid REFERENCES users(id) ON DELETE SET NULL ON UPDATE CASCADE,
  assigned_at        timestamptz(3) NOT NULL DEFAULT now(),
  acknowledged_at    timestamptz(3),
  acknowledged_by_id uuid REFERENCES users(id) ON DELETE SET NULL ON UPDATE CASCADE,
  completed_at       timestamptz(3),
  completed_by_id    uuid REFERENCES users(id) ON DELETE SET NULL ON UPDATE CASCADE,
  completion_note    text
);
CREATE INDEX coaching_items_account_id_agent_id_status_idx ON coaching_items (account_id, agent_id, status);
CREATE INDEX coaching_items_account_id_assigned_at_idx ON coaching_items (account_id, assigned_at);
CREATE INDEX coaching_items_call_id_idx ON coaching_items (call_id);

-- ftlab schema: the durable state of the auction service. The one file serves the embedded MariaDB and an external
-- MySQL 8 / MariaDB; it is applied idempotently (IF NOT EXISTS) before replicas start. Hibernate never alters it.
-- Timestamps are DATETIME(6) in UTC (Hibernate writes them with hibernate.jdbc.time_zone=UTC).

CREATE TABLE IF NOT EXISTS account (
  id            BIGINT       NOT NULL AUTO_INCREMENT,
  username      VARCHAR(64)  NOT NULL,
  password_hash VARCHAR(128) NOT NULL,
  created_at    DATETIME(6)  NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_account_username (username)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- Logins live in the database because replicas are stateless: any replica accepts a token after a fail-over.
CREATE TABLE IF NOT EXISTS login_session (
  token      VARCHAR(64) NOT NULL,
  account_id BIGINT      NOT NULL,
  expires_at DATETIME(6) NOT NULL,
  PRIMARY KEY (token),
  KEY ix_login_session_account (account_id),
  CONSTRAINT fk_login_session_account FOREIGN KEY (account_id) REFERENCES account (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS auction (
  id                   BIGINT        NOT NULL AUTO_INCREMENT,
  seller_id            BIGINT        NOT NULL,
  title                VARCHAR(100)  NOT NULL,
  description          VARCHAR(1000) NOT NULL,
  starting_price_cents BIGINT        NOT NULL,
  highest_bid_cents    BIGINT        NOT NULL DEFAULT 0,
  highest_bidder_id    BIGINT        NULL,
  bid_count            INT           NOT NULL DEFAULT 0,
  created_at           DATETIME(6)   NOT NULL,
  closes_at            DATETIME(6)   NOT NULL,
  PRIMARY KEY (id),
  KEY ix_auction_seller (seller_id),
  CONSTRAINT fk_auction_seller FOREIGN KEY (seller_id) REFERENCES account (id),
  CONSTRAINT fk_auction_highest_bidder FOREIGN KEY (highest_bidder_id) REFERENCES account (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS bid (
  id           BIGINT      NOT NULL AUTO_INCREMENT,
  auction_id   BIGINT      NOT NULL,
  bidder_id    BIGINT      NOT NULL,
  amount_cents BIGINT      NOT NULL,
  placed_at    DATETIME(6) NOT NULL,
  PRIMARY KEY (id),
  KEY ix_bid_auction_amount (auction_id, amount_cents),
  CONSTRAINT fk_bid_auction FOREIGN KEY (auction_id) REFERENCES auction (id),
  CONSTRAINT fk_bid_bidder FOREIGN KEY (bidder_id) REFERENCES account (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- The stored reply of every state-changing request, written in the same transaction as the change.
-- The primary key is what makes a retry after fail-over execute at most once.
CREATE TABLE IF NOT EXISTS request_log (
  client_id  VARCHAR(64) NOT NULL,
  seq        BIGINT      NOT NULL,
  operation  VARCHAR(32) NOT NULL,
  reply      BLOB        NOT NULL,
  created_at DATETIME(6) NOT NULL,
  PRIMARY KEY (client_id, seq)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- The highest view epoch a Replication Manager has given an order at (rm.db.EpochFence, docs/architecture.md "The
-- managers, replicated"): an order of an older epoch, a deposed leader's, is refused, and counted here.
CREATE TABLE IF NOT EXISTS manager_epoch (
  id           TINYINT      NOT NULL,
  epoch        BIGINT       NOT NULL,
  member       VARCHAR(32)  NOT NULL,
  term         BIGINT       NOT NULL,
  refused      BIGINT       NOT NULL DEFAULT 0,
  last_refused VARCHAR(128) NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- The stateful tier (seed 003, docs/architecture.md "The stateful tier"). Its state lives in the primary's memory;
-- the database keeps only what recovers it: the external inputs, the estimator changes, soft checkpoints, and the
-- epoch that fences an old primary. A run of the tier starts by emptying them (the harness's configure).
CREATE TABLE IF NOT EXISTS tart_epoch (
  id       TINYINT NOT NULL,
  epoch    BIGINT  NOT NULL,
  settings BLOB    NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- Every external input, logged before it is handled: by gateway and stamp (its virtual arrival time, ns); a request
-- identity is logged once.
CREATE TABLE IF NOT EXISTS tart_input (
  gateway   INT         NOT NULL,
  stamp     BIGINT      NOT NULL,
  epoch     BIGINT      NOT NULL,
  client_id VARCHAR(64) NOT NULL,
  seq       BIGINT      NOT NULL,
  input     BLOB        NOT NULL,
  PRIMARY KEY (gateway, stamp),
  UNIQUE KEY uk_tart_input_request (client_id, seq)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- Every change of a gateway's estimator (a determinism fault), logged before it takes effect at effective_vt.
CREATE TABLE IF NOT EXISTS tart_fault (
  gateway      INT    NOT NULL,
  effective_vt BIGINT NOT NULL,
  epoch        BIGINT NOT NULL,
  fault        BLOB   NOT NULL,
  PRIMARY KEY (gateway, effective_vt)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- Soft checkpoints, written asynchronously by the primary; recovery restores the newest.
CREATE TABLE IF NOT EXISTS tart_checkpoint (
  id         BIGINT      NOT NULL AUTO_INCREMENT,
  epoch      BIGINT      NOT NULL,
  messages   BIGINT      NOT NULL,
  taken_at   DATETIME(6) NOT NULL,
  capture_us BIGINT      NOT NULL,
  state      LONGBLOB    NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

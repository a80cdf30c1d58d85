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

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <string>

class Mailer {
public:
  virtual ~Mailer() = default;
  virtual bool send(const std::string &to, const std::string &body) = 0;
  virtual int queued() const = 0;
};

class MockMailer : public Mailer {
public:
  MOCK_METHOD(bool, send, (const std::string &to, const std::string &body), (override));
  MOCK_METHOD(int, queued, (), (const, override));
};

bool notify(Mailer &m) { return m.queued() == 0 && m.send("ops", "done"); }

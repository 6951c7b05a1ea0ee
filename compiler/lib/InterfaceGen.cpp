//===- InterfaceGen.cpp - T_interface, T_client and T_server --------------===//
#include "pocc/InterfaceGen.h"
#include "pocc/LayoutHash.h"
#include "pocc/RemoteModel.h"
#include "pocc/TypeNames.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace pocc {

bool RemoteMethod::hasCopyBack() const {
  for (const RemoteParam &P : Params)
    if (P.CopiesBack)
      return true;
  return false;
}

InterfaceGen::InterfaceGen(ASTContext &Ctx, Serializability &Sendable)
    : Ctx(Ctx), Sendable(Sendable) {}

namespace {
/// Methods that belong in a class's remote interface.
/// The operators a call through a process pointer can reach remotely:
/// `(*p)(args)` and `(*p)[i]`.
bool isRemoteOperator(OverloadedOperatorKind K) { return K == OO_Call || K == OO_Subscript; }

bool isInterfaceMethod(const CXXMethodDecl *MD) {
  return !MD->isImplicit() && !isa<CXXConstructorDecl>(MD) && !isa<CXXDestructorDecl>(MD) &&
         !isa<CXXConversionDecl>(MD) && !MD->isStatic() && !MD->isDeleted() &&
         (!MD->isOverloadedOperator() || isRemoteOperator(MD->getOverloadedOperator())) &&
         MD->getAccess() == AS_public && MD->getRefQualifier() == RQ_None &&
         !MD->getDescribedTemplate();
}

/// The identifier that names a method's wrappers: its own name, or
/// operator_call / operator_subscript.
std::string wrapperStem(const CXXMethodDecl *MD) {
  switch (MD->getOverloadedOperator()) {
  case OO_Call:
    return "operator_call";
  case OO_Subscript:
    return "operator_subscript";
  default:
    return MD->getNameAsString();
  }
}

/// The signature of a method template's specialisation up to its parameter
/// list, with an operator's name spelled as its wrapper stem:
/// `T::operator()<int>(int) const` gives `T::operator_call<int>`. The
/// parameter list is the parenthesis that closes the signature (template
/// arguments may hold parentheses too, and so does `operator()`).
std::string unitHead(llvm::StringRef Signature, const CXXMethodDecl *MD) {
  size_t Close = Signature.rfind(')');
  size_t Open = Close;
  for (int Depth = 0; Open != llvm::StringRef::npos && Open > 0; --Open) {
    if (Signature[Open] == ')')
      ++Depth;
    else if (Signature[Open] == '(' && --Depth == 0)
      break;
  }
  std::string Head = Signature.take_front(Open).str();
  llvm::StringRef Spelled = MD->getOverloadedOperator() == OO_Call        ? "operator()"
                            : MD->getOverloadedOperator() == OO_Subscript ? "operator[]"
                                                                          : "";
  if (size_t At = Spelled.empty() ? std::string::npos : Head.find(Spelled.str());
      At != std::string::npos)
    Head.replace(At, Spelled.size(), wrapperStem(MD));
  return Head;
}

bool isInterfaceCtor(const CXXConstructorDecl *CD) {
  return !CD->isImplicit() && !CD->isDeleted() && !CD->isCopyOrMoveConstructor() &&
         CD->getAccess() == AS_public && !CD->getDescribedFunctionTemplate();
}

bool isReservedName(llvm::StringRef N) {
  return N == "self" || N == "call" || N == "reply" || N == "where";
}

std::string sourceText(SourceRange R, const ASTContext &Ctx) {
  if (R.isInvalid())
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange CR =
      CharSourceRange::getTokenRange(SM.getFileLoc(R.getBegin()), SM.getFileLoc(R.getEnd()));
  return Lexer::getSourceText(CR, SM, Ctx.getLangOpts()).str();
}
} // namespace

std::string InterfaceGen::origin(const Decl *D) const {
  const SourceManager &SM = Ctx.getSourceManager();
  PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(D->getLocation()));
  if (P.isInvalid())
    return "<unknown>";
  return (llvm::sys::path::filename(P.getFilename()) + ":" + llvm::Twine(P.getLine())).str();
}

RemoteMethod InterfaceGen::buildMethod(const CXXMethodDecl *MD, std::string Key) {
  RemoteMethod M;
  M.Decl = MD;
  M.Key = std::move(Key);
  M.IsCtor = isa<CXXConstructorDecl>(MD);
  M.Nonblocking = !M.IsCtor && isNonblocking(MD);
  M.Signature = methodSignature(MD);
  std::vector<QualType> Carried;
  for (const ParmVarDecl *PD : MD->parameters())
    Carried.push_back(PD->getType());
  if (!M.IsCtor)
    Carried.push_back(MD->getReturnType());
  const std::string Layout =
      reachedLayout(Carried, [this](const CXXRecordDecl *RD) { return Sendable.isRemotable(RD); });
  M.Identity = Layout.empty() ? M.Signature : M.Signature + "|" + stringLiteralBody(Layout);
  M.Result = M.IsCtor ? codeSpelling(Ctx.getRecordType(MD->getParent()), Ctx) + " *"
                      : codeSpelling(MD->getReturnType(), Ctx);
  for (unsigned I = 0; I < MD->getNumParams(); ++I) {
    const ParmVarDecl *PD = MD->getParamDecl(I);
    RemoteParam P;
    P.Decl = PD;
    P.Name = PD->getName().str();
    if (P.Name.empty() || isReservedName(P.Name))
      P.Name = "p" + std::to_string(I);
    // Without top-level qualifiers (`T *const p` passes as a `T *`): the
    // wrapper's copy of the argument is its own, and the runtime's argument
    // handling matches the plain type.
    P.Type = codeSpelling(PD->getType().getUnqualifiedType(), Ctx);
    if (PD->hasDefaultArg() && !PD->hasUninstantiatedDefaultArg() && !PD->hasUnparsedDefaultArg()) {
      // A name is looked up at the method's scope; the wrapper is at
      // namespace scope, so spell named constants fully qualified.
      const Expr *DA = PD->getDefaultArg()->IgnoreParenImpCasts();
      const auto *DRE = dyn_cast<DeclRefExpr>(DA);
      if (DRE && (isa<VarDecl>(DRE->getDecl()) || isa<EnumConstantDecl>(DRE->getDecl())))
        P.Default = "::" + DRE->getDecl()->getQualifiedNameAsString();
      else
        P.Default = sourceText(PD->getDefaultArgRange(), Ctx);
      if (P.Default.empty()) {
        llvm::raw_string_ostream OS(P.Default);
        PD->getDefaultArg()->printPretty(OS, nullptr, PrintingPolicy(Ctx.getLangOpts()));
      }
    }
    if (auto U = Sendable.checkParam(PD, P.Kind)) {
      if (!M.Problem) {
        M.Problem = U;
        M.ProblemParam = PD;
      }
    }
    QualType T = PD->getType();
    if (const auto *RT = T->getAs<LValueReferenceType>())
      P.CopiesBack = !RT->getPointeeType().isConstQualified();
    else if (const auto *PT = T->getAs<PointerType>())
      P.CopiesBack = !PT->getPointeeType().isConstQualified();
    else
      P.CopiesBack = false;
    P.MoveLocally = T->isRecordType() && !T.isTriviallyCopyableType(Ctx);
    M.Params.push_back(std::move(P));
  }
  // POC_COUNT(n) names another parameter; refer to it by its wrapper name.
  for (RemoteParam &P : M.Params) {
    std::string Count = Serializability::countOf(P.Decl);
    if (Count.empty())
      continue;
    for (const RemoteParam &Q : M.Params)
      if (Q.Decl->getName() == Count)
        P.Count = Q.Name;
    if (P.Count.empty() && !M.Problem) {
      M.Problem = Unsendable{"POC_COUNT(" + Count + ") names no parameter of this method", P.Decl};
      M.ProblemParam = P.Decl;
    }
  }
  if (!M.IsCtor && !M.Problem)
    if (auto U = Sendable.checkResult(MD->getReturnType()))
      M.Problem = U;
  return M;
}

const RemoteClass &InterfaceGen::classFor(const CXXRecordDecl *RD) {
  RD = RD->getDefinition();
  auto &Slot = Classes[RD];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<RemoteClass>();
  RemoteClass &C = *Slot;
  C.Decl = RD;
  C.Name = className(RD);
  C.Id = classIdentifier(RD);
  C.Type = codeSpelling(Ctx.getRecordType(RD), Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  C.Concrete =
      !RD->isAbstract() && !SM.isInSystemHeader(RD->getLocation()) && !RD->isInStdNamespace();
  std::map<std::string, unsigned> Overloads;
  for (const CXXMethodDecl *MD : RD->methods()) {
    if (!isInterfaceMethod(MD))
      continue;
    std::string Name = wrapperStem(MD);
    std::string Key = Name + "_" + std::to_string(Overloads[Name]++);
    C.Methods.push_back(buildMethod(MD, std::move(Key)));
  }
  unsigned CtorIndex = 0;
  for (const CXXConstructorDecl *CD : RD->ctors())
    if (isInterfaceCtor(CD))
      C.Ctors.push_back(buildMethod(CD, "ctor_" + std::to_string(CtorIndex++)));
  // The implicit default constructor is declared lazily by Sema, so it is
  // represented by its signature alone: the interface must not depend on
  // whether this file happened to use it.
  if (!RD->hasUserDeclaredConstructor() && RD->hasDefaultConstructor()) {
    RemoteMethod M;
    M.Decl = nullptr;
    M.Key = "ctor_" + std::to_string(CtorIndex++);
    M.IsCtor = true;
    M.Signature = C.Name + "::" + RD->getNameAsString() + "()";
    M.Identity = M.Signature;
    M.Result = C.Type + " *";
    C.Ctors.push_back(std::move(M));
  }
  if (isProcessGroupMember(RD) && C.Concrete)
    addGroupSpecialisations(C);
  return C;
}

void InterfaceGen::addGroupSpecialisations(RemoteClass &C) {
  // Every class on the path from C up to ProcessGroupMember may be the
  // element type of the group array a caller passes.
  std::vector<const CXXRecordDecl *> Work{C.Decl};
  std::set<const CXXRecordDecl *> Seen;
  while (!Work.empty()) {
    const CXXRecordDecl *X = Work.back();
    Work.pop_back();
    if (!X || !isProcessGroupMember(X) || !Seen.insert(X).second)
      continue;
    QualType XT = Ctx.getRecordType(X);
    QualType Group = Ctx.getPointerType(Ctx.getPointerType(XT).withConst());
    std::string Sig = "poc::ProcessGroupMember::SetProcessGroup<" + className(X) + ">(int, int, " +
                      signatureSpelling(Group, Ctx) + ")";
    std::string XS = codeSpelling(XT, Ctx);
    std::string MP = "static_cast<void (::poc::ProcessGroupMember::*)(int, "
                     "int, " +
                     XS +
                     " *const *)>(&::poc::ProcessGroupMember::"
                     "SetProcessGroup<" +
                     XS + ">)";
    C.ExtraServed.emplace_back(std::move(Sig), std::move(MP));
    for (const CXXBaseSpecifier &B : X->bases())
      Work.push_back(B.getType()->getAsCXXRecordDecl());
  }
  std::sort(C.ExtraServed.begin(), C.ExtraServed.end());
}

const RemoteClass &InterfaceGen::unitFor(const CXXMethodDecl *MD) {
  if (!MD->getPrimaryTemplate())
    return classFor(MD->getParent());
  auto &Slot = Specs[MD->getCanonicalDecl()];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<RemoteClass>();
  RemoteClass &C = *Slot;
  C.Decl = MD->getParent()->getDefinition();
  C.Name = className(C.Decl);
  C.Type = codeSpelling(Ctx.getRecordType(C.Decl), Ctx);
  RemoteMethod M = buildMethod(MD, wrapperStem(MD) + "_0");
  C.Id = identifierFrom(unitHead(M.Signature, MD));
  C.Methods.push_back(std::move(M));
  return C;
}

const RemoteMethod *InterfaceGen::methodFor(const CXXMethodDecl *MD) {
  if (const auto *CD = dyn_cast<CXXConstructorDecl>(MD)) {
    const RemoteClass &C = classFor(CD->getParent());
    for (const RemoteMethod &M : C.Ctors)
      if (M.Decl ? M.Decl->getCanonicalDecl() == CD->getCanonicalDecl()
                 : CD->isImplicit() && CD->isDefaultConstructor())
        return &M;
    return nullptr;
  }
  const RemoteClass &U = unitFor(MD);
  for (const RemoteMethod &M : U.Methods)
    if (M.Decl->getCanonicalDecl() == MD->getCanonicalDecl())
      return &M;
  return nullptr;
}

void InterfaceGen::use(const RemoteClass &C, const RemoteMethod &M, llvm::StringRef Variant) {
  Used.insert(C.Id + "::" + M.Key + Variant.str());
}

std::string InterfaceGen::selfParam(const RemoteClass &C, const RemoteMethod &M) const {
  return std::string(M.Decl->isConst() ? "const " : "") + C.Type + " *self";
}

std::string InterfaceGen::wrapperParams(const RemoteMethod &M, bool WithDefaults) const {
  std::string S;
  for (const RemoteParam &P : M.Params) {
    S += ", " + P.Type + " " + P.Name;
    if (WithDefaults && !P.Default.empty())
      S += " = " + P.Default;
  }
  return S;
}

std::string InterfaceGen::wrapperResult(const RemoteMethod &M, llvm::StringRef Variant) const {
  if (Variant == "_start")
    return "void";
  if (Variant == "_future")
    return "::poc::future<" + M.Result + ">";
  return M.Result;
}

std::string InterfaceGen::forwardedArgs(const RemoteMethod &M, bool Leading) const {
  std::string S;
  for (const RemoteParam &P : M.Params) {
    if (Leading || !S.empty())
      S += ", ";
    S += P.MoveLocally ? "std::move(" + P.Name + ")" : P.Name;
  }
  return S;
}

std::string InterfaceGen::localCall(const RemoteMethod &M) const {
  return "self->" + M.Decl->getNameAsString() + "(" + forwardedArgs(M, false) + ")";
}

std::string InterfaceGen::startedLocally(const RemoteMethod &M, llvm::StringRef Start) const {
  // The call is queued on the object (poc/start_on.hpp) with copies of the
  // arguments, as a started call sends them to a process; a future's
  // reference parameters that a process would copy back are the caller's.
  bool Future = Start == "start_on_future";
  std::string Captures = "self";
  for (const RemoteParam &P : M.Params)
    Captures +=
        ", " + (P.MoveLocally ? P.Name + " = std::move(" + P.Name + ")"
                : Future && P.CopiesBack && llvm::StringRef(P.Type).ends_with("&") ? "&" + P.Name
                                                                                   : P.Name);
  return "::poc::" + Start.str() + "(self, [" + Captures + "](auto *) mutable { return " +
         localCall(M) + "; });\n";
}

std::string InterfaceGen::sendArgs(const RemoteMethod &M, bool Move) const {
  std::string S;
  for (const RemoteParam &P : M.Params) {
    if (!S.empty())
      S += ", ";
    S += P.Kind == ParamKind::Counted ? "::poc::counted(" + P.Name + ", " + P.Count + ")"
         : Move && P.MoveLocally      ? "std::move(" + P.Name + ")"
                                      : P.Name;
  }
  return S;
}

std::string InterfaceGen::copyBacks(const RemoteMethod &M) const {
  std::string S;
  for (const RemoteParam &P : M.Params) {
    if (!P.CopiesBack)
      continue;
    if (!S.empty())
      S += ", ";
    S += P.Kind == ParamKind::Counted ? "::poc::counted(" + P.Name + ", " + P.Count + ")" : P.Name;
  }
  return S;
}

std::string InterfaceGen::memberPointer(const RemoteMethod &M) const {
  const CXXMethodDecl *MD = M.Decl;
  std::string Cls = codeSpelling(Ctx.getRecordType(MD->getParent()), Ctx);
  std::string S = "static_cast<" + M.Result + " (" + Cls + "::*)(";
  for (size_t I = 0; I < M.Params.size(); ++I)
    S += (I ? ", " : "") + M.Params[I].Type;
  S += std::string(")") + (MD->isConst() ? " const" : "") + ">(&" + Cls +
       "::" + MD->getNameAsString();
  if (const TemplateArgumentList *Args = MD->getTemplateSpecializationArgs()) {
    S += '<';
    for (unsigned I = 0; I < Args->size(); ++I) {
      if (I)
        S += ", ";
      const TemplateArgument &A = Args->get(I);
      if (A.getKind() == TemplateArgument::Type) {
        S += codeSpelling(A.getAsType(), Ctx);
      } else {
        llvm::raw_string_ostream OS(S);
        A.print(PrintingPolicy(Ctx.getLangOpts()), OS, /*IncludeType=*/true);
      }
    }
    S += '>';
  }
  return S + ")";
}

std::string InterfaceGen::emitDeclarations(const RemoteClass &C) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  bool IsUnit =
      C.Methods.size() == 1 && C.Methods[0].Decl && C.Methods[0].Decl->getPrimaryTemplate();
  OS << "// poc++: remote interface of "
     << (IsUnit ? "'" + C.Methods[0].Signature + "'" : "class '" + C.Name + "'") << " ("
     << origin(IsUnit ? static_cast<const Decl *>(C.Methods[0].Decl) : C.Decl) << ").\n";
  OS << "namespace poc_gen {\n";
  OS << "/// Method ids and meta-information (the paper's " << C.Name << "_interface).\n";
  OS << "struct " << C.Id << "_interface {\n";
  OS << "static constexpr const char *class_name = \"" << C.Name << "\";\n";
  OS << "enum : std::uint64_t {\n";
  for (const auto *List : {&C.Ctors, &C.Methods})
    for (const RemoteMethod &M : *List)
      if (!M.Problem)
        OS << M.Key << " = ::poc::method_id(\"" << M.Identity << "\"),\n";
  OS << "};\n};\n";
  OS << "/// Client side: calls a local object directly and a remote one "
        "through a request.\n";
  OS << "struct " << C.Id << "_client : " << C.Id << "_interface {\n";
  if (C.Concrete)
    for (const RemoteMethod &M : C.Ctors) {
      if (M.Problem)
        continue;
      std::string N = M.Key.substr(5); // "ctor_<k>" -> "<k>"
      for (const char *Kind : {"create", "start_create"})
        OS << "static " << M.Result << Kind << "_" << N << "(const ::poc::machine &where"
           << wrapperParams(M, true) << ");\n";
      // Persistent creation is rare: declared only where it is used.
      if (Used.count(C.Id + "::" + M.Key + "make_persistent"))
        OS << "static " << M.Result << "make_persistent_" << N
           << "(const ::poc::persistent_at &where" << wrapperParams(M, true) << ");\n";
    }
  for (const RemoteMethod &M : C.Methods) {
    if (M.Problem)
      continue;
    std::string Self = selfParam(C, M), Params = wrapperParams(M, true);
    for (llvm::StringRef Variant : {"", "_start", "_future"})
      OS << "static " << wrapperResult(M, Variant) << " " << M.Key << Variant << "(" << Self
         << Params << ");\n";
  }
  OS << "};\n} // namespace poc_gen\n";
  return S;
}

std::string InterfaceGen::emitMethodRegistration(const RemoteClass &Unit) {
  if (Unit.Methods.size() != 1 || !Unit.Methods[0].Decl ||
      !Unit.Methods[0].Decl->getPrimaryTemplate() || Unit.Methods[0].Problem ||
      !classFor(Unit.Decl).Concrete)
    return "";
  const RemoteMethod &M = Unit.Methods[0];
  return "namespace poc_gen {\n/// Serves this specialisation in every process of '" + Unit.Name +
         "'.\ninline const ::poc::MethodRegistration<" + Unit.Type + "> " + Unit.Id +
         "_registration{" + Unit.Id + "_interface::" + M.Key +
         ", [](void *self, ::poc::Request &rq) {\nrq.invoke(*static_cast<" + Unit.Type +
         " *>(self), " + memberPointer(M) + ");\n}};\n} // namespace poc_gen\n";
}

std::string InterfaceGen::emitClientDefinitions(const RemoteClass &C) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  auto used = [&](const RemoteMethod &M, llvm::StringRef V) {
    return Used.count(C.Id + "::" + M.Key + V.str()) != 0;
  };
  std::string Client = "poc_gen::" + C.Id + "_client::";
  for (const RemoteMethod &M : C.Ctors) {
    if (M.Problem || !C.Concrete)
      continue;
    std::string N = M.Key.substr(5);
    std::string Args = sendArgs(M, false);
    for (const char *Kind : {"create", "start_create", "make_persistent"}) {
      if (!used(M, Kind))
        continue;
      bool Persistent = llvm::StringRef(Kind) == "make_persistent";
      OS << "inline " << M.Result << Client << Kind << "_" << N << "(const "
         << (Persistent ? "::poc::persistent_at" : "::poc::machine") << " &where"
         << wrapperParams(M, false) << ") {\n"
         << "return ::poc::" << Kind << "<" << C.Type << ">("
         << (Persistent ? "where.where(), where.address()" : "where") << ", " << C.Id
         << "_interface::" << M.Key << (Args.empty() ? "" : ", ") << Args << ");\n}\n";
    }
  }
  for (const RemoteMethod &M : C.Methods) {
    if (M.Problem)
      continue;
    std::string Head = "(" + selfParam(C, M) + wrapperParams(M, false) + ") {\n";
    auto send = [&](bool Move) {
      std::string Args = sendArgs(M, Move);
      return "::poc::Call call(self, " + C.Id + "_interface::" + M.Key + ", \"" + C.Name +
             "::" + M.Decl->getNameAsString() + "\");\n" +
             (Args.empty() ? "" : "call.args(" + Args + ");\n");
    };
    // A started call sends after the wrapper returns: its by-value
    // arguments are moved into the request.
    std::string Send = send(false), StartSend = send(true);
    bool Void = M.Decl->getReturnType()->isVoidType();
    if (used(M, "")) {
      OS << "inline " << M.Result << " " << Client << M.Key << Head;
      OS << "if (!::poc::is_remote(self))"
         << (Void ? " {\n" + localCall(M) + ";\nreturn;\n}\n" : "\nreturn " + localCall(M) + ";\n");
      OS << Send;
      if (M.hasCopyBack()) {
        OS << "auto reply = call.invoke_reply();\n"
           << "reply.copy_back(" << copyBacks(M) << ");\n"
           << (Void ? "reply.result();\n" : "return reply.result<" + M.Result + ">();\n");
      } else {
        OS << (Void ? "call.invoke();\n" : "return call.invoke<" + M.Result + ">();\n");
      }
      OS << "}\n";
    }
    if (used(M, "_start")) {
      OS << "inline void " << Client << M.Key << "_start" << Head
         << "if (!::poc::is_remote(self)) {\n"
         << startedLocally(M, "start_on") << "return;\n}\n"
         << StartSend << "call.start();\n}\n";
    }
    if (used(M, "_future")) {
      OS << "inline ::poc::future<" << M.Result << "> " << Client << M.Key << "_future" << Head
         << "if (!::poc::is_remote(self))\nreturn " << startedLocally(M, "start_on_future")
         << StartSend << "return call.start_future<" << M.Result << ">(" << copyBacks(M)
         << ");\n}\n";
    }
  }
  return S;
}

void InterfaceGen::servedByBases(const CXXRecordDecl *RD, std::vector<const RemoteMethod *> &Out,
                                 std::set<const CXXRecordDecl *> &Seen) {
  for (const CXXBaseSpecifier &B : RD->bases()) {
    const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl();
    if (!Base || B.getAccessSpecifier() != AS_public || !Seen.insert(Base->getDefinition()).second)
      continue;
    const RemoteClass &BC = classFor(Base);
    for (const RemoteMethod &M : BC.Methods)
      if (!M.Problem)
        Out.push_back(&M);
    servedByBases(BC.Decl, Out, Seen);
  }
}

std::string InterfaceGen::emitServer(const RemoteClass &C) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "// poc++: server of class '" << C.Name << "' (" << origin(C.Decl) << ").\n";
  OS << "namespace poc_gen {\n";
  OS << "/// Server side: runs requests on the process's own thread.\n";
  OS << "struct " << C.Id << "_server : " << C.Id << "_interface {\n";
  OS << "static void dispatch(" << C.Type << " &self, std::uint64_t method, ::poc::Request &rq) {\n"
     << "switch (method) {\n";
  // Every method served, with its case label: the class's own by their
  // keys, its bases' by their ids.
  std::vector<std::pair<std::string, const RemoteMethod *>> Served;
  for (const RemoteMethod &M : C.Methods)
    if (!M.Problem)
      Served.emplace_back(M.Key, &M);
  std::vector<const RemoteMethod *> Inherited;
  std::set<const CXXRecordDecl *> Seen;
  servedByBases(C.Decl, Inherited, Seen);
  for (const RemoteMethod *M : Inherited)
    Served.emplace_back("::poc::method_id(\"" + M->Identity + "\")", M);
  for (const auto &[Label, M] : Served)
    OS << "case " << Label << ":\nrq.invoke(self, " << memberPointer(*M) << ");\nreturn;\n";
  for (const auto &[Sig, MP] : C.ExtraServed)
    OS << "case ::poc::method_id(\"" << Sig << "\"):\nrq.invoke(self, " << MP << ");\nreturn;\n";
  // Specialisations of member function templates are registered by the
  // files that call them (emitMethodRegistration), under the class that
  // declares the template: this class or one of its public bases.
  OS << "default:\n";
  std::vector<const CXXRecordDecl *> Declaring{C.Decl};
  for (size_t I = 0; I < Declaring.size(); ++I) // public bases, in order
    for (const CXXBaseSpecifier &B : Declaring[I]->bases())
      if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl();
          Base && B.getAccessSpecifier() == AS_public &&
          std::find(Declaring.begin(), Declaring.end(), Base->getDefinition()) == Declaring.end())
        Declaring.push_back(Base->getDefinition());
  for (const CXXRecordDecl *D : Declaring) {
    std::string T = codeSpelling(Ctx.getRecordType(D), Ctx);
    std::string Self =
        D == C.Decl ? "std::addressof(self)" : "static_cast<" + T + " *>(std::addressof(self))";
    OS << "if (::poc::detail::invoke_registered_method(typeid(" << T
       << "), method, static_cast<void *>(" << Self << "), rq))\nreturn;\n";
  }
  OS << "rq.unknown_method(method, class_name);\n}\n}\n";
  OS << "static " << C.Type << " *construct(std::uint64_t ctor, ::poc::Request &rq) {\n"
     << "switch (ctor) {\n";
  for (const RemoteMethod &M : C.Ctors) {
    if (M.Problem)
      continue;
    OS << "case " << M.Key << ":\nreturn rq.construct<" << C.Type;
    for (const RemoteParam &P : M.Params)
      OS << ", " << P.Type;
    OS << ">();\n";
  }
  OS << "default:\nrq.unknown_method(ctor, class_name);\n}\n}\n";
  // The methods marked POC_NONBLOCKING, by id, for the runtime
  // (ClassFunctions::nonblocking); only a class that marks one has it.
  std::string Marked;
  for (const auto &[Label, M] : Served)
    if (M->Nonblocking)
      Marked += "case " + Label + ":\nreturn \"" + M->Decl->getQualifiedNameAsString() + "\";\n";
  if (!Marked.empty())
    OS << "/// The name of `method` if it is marked POC_NONBLOCKING, else null.\n"
       << "static const char *nonblocking(std::uint64_t method) noexcept {\nswitch (method) {\n"
       << Marked << "default:\nreturn nullptr;\n}\n}\n";
  OS << "};\n";
  OS << "inline const ::poc::ClassRegistration<" << C.Type << ", " << C.Id << "_server> " << C.Id
     << "_registration{\"" << C.Name << "\"};\n";
  OS << "} // namespace poc_gen\n";
  return S;
}

} // namespace pocc
